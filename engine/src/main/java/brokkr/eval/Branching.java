package brokkr.eval;

import brokkr.conversation.InfrastructureFailure;
import brokkr.value.Value;

/**
 * What a benchmark with conversations offers beyond whole episodes ({@link BenchmarkProvider#branching()}):
 * a live episode held at a clean fork point (a checkpoint, {@link Branches}), protocols that continue
 * it (branches, graded on the one evaluation path), and decision points rebuilt from a recorded
 * transcript (probes). Everything held is immutable, so a checkpoint forks in O(1).
 */
public interface Branching {
    /**
     * An episode held at a checkpoint: the customer has produced its {@link #customerMessage()}-th
     * message and it has not been delivered, so the candidate is idle. Provider-specific but immutable.
     */
    interface Held {
        /** The world at the checkpoint, the value every branch's fork starts from (shared, never copied). */
        Value world();

        /** The log so far in the benchmark's transcript form, the held message last. */
        Value transcript();

        /** Which customer message (1-based) is held. */
        int customerMessage();
    }

    /**
     * Runs the interaction of {@code ctx} (as {@link Protocol#run} would, its world already set up) until
     * the customer's {@code at}-th message and holds it; IllegalArgumentException, saying how the episode
     * ended, when it ends before that message; InfrastructureFailure when a model could not be reached on the way.
     */
    Held hold(RunContext ctx, int at) throws InfrastructureFailure;

    /**
     * The protocol of a branch of {@code held}: its world is in the run's fork ({@link RunContext#world()}),
     * the held message goes to the run's candidate, and the episode runs to its end with the run's
     * models (which may differ from the checkpoint's). The interaction's transcript starts with the held log.
     */
    Protocol resume(Held held);

    /**
     * The decision point at the {@code at}-th customer message of a recorded transcript of task
     * {@code env}: the world rebuilt by replaying the record's effects (not its models), the dialogue up to
     * and including that message, and the record's own next action. IllegalArgumentException when the
     * record has no such message or does not replay.
     */
    DecisionPoint decisionPoint(EnvironmentDef env, Value transcript, int at);
}
