package brokkr.conversation;

import java.util.List;

/** A model call that could not be completed (retries exhausted, timeouts): not the model's fault. */
public class InfrastructureFailure extends Exception {
    private final List<ModelCall> attempts;

    public InfrastructureFailure(String message, List<ModelCall> attempts, Throwable cause) {
        super(message, cause);
        this.attempts = List.copyOf(attempts);
    }

    public List<ModelCall> attempts() {
        return attempts;
    }
}
