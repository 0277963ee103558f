package brokkr.cli;

import brokkr.conversation.Candidate;

/**
 * Where {@code --model M --provider P} gets its candidate from. The CLI's source reads keys and base
 * URLs from the environment only; tests hand in their own.
 */
@FunctionalInterface
public interface ModelSource {
    /** A candidate for {@code model} behind {@code provider}; IllegalArgumentException for a bad configuration. */
    Candidate open(String provider, String model);
}
