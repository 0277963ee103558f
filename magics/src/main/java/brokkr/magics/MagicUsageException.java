package brokkr.magics;

/** Wrong arguments to a magic: front ends show the message and the magic's usage, never a stack trace. */
public final class MagicUsageException extends RuntimeException {
    public MagicUsageException(String message) {
        super(message, null, false, false);
    }
}
