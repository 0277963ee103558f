package brokkr.domains.bfcl.multiturn;

/**
 * A backend's IO that could not be done: e.g. a web search that a replayed recording does not hold. Not the model's
 * doing, so not graded: {@link MultiTurnInference#play} ends the task with it as an infrastructure failure (no
 * verdict, left out of every score), never a result the model is shown. Thrown by a method body; not a Python
 * exception (the executor does not turn it into an error text).
 */
public final class IoFailure extends RuntimeException {
    public IoFailure(String message) {
        super(message);
    }

    public IoFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
