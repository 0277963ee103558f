package brokkr.eval;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import java.util.List;
import java.util.Objects;

/**
 * An infrastructure fault that cut a protocol's interaction short, with what the interaction recorded
 * up to it (transcript, output, the orchestrator's termination reason): {@link Evaluation} keeps that
 * in the failed attempt's evidence, as it keeps everything else gathered so far. A protocol throws it
 * where its orchestrator records the fault as a termination (tau2's {@code infrastructure_error}).
 */
public final class InterruptedInteraction extends InfrastructureFailure {
    private final transient Interaction partial;

    public InterruptedInteraction(String message, List<ModelCall> attempts, Interaction partial) {
        super(message, attempts, null);
        this.partial = Objects.requireNonNull(partial, "partial");
    }

    /** The interaction as far as it got. */
    public Interaction partial() {
        return partial;
    }
}
