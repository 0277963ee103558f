package brokkr.eval;

import brokkr.conversation.InfrastructureFailure;
import brokkr.value.Value;

/**
 * What a benchmark with multi-step episodes offers beyond whole episodes ({@link BenchmarkProvider#branching()}):
 * a live episode held at a clean fork point (a checkpoint, {@link Branches}), protocols that continue
 * it (branches, graded on the one evaluation path), and decision points rebuilt from a recorded
 * transcript (probes). Everything held is immutable, so a checkpoint forks in O(1).
 *
 * <p>Where an episode is cut is the provider's own unit ({@link #cutUnit()}), counted from 1: tau2 cuts at
 * the customer's k-th message (the candidate idle, the message not yet delivered), the wiki benchmark after
 * the candidate's k-th tool call (its result in the log, the candidate's next step not yet asked).
 */
public interface Branching {
    /** The unit of the benchmarks that cut at the customer's messages (tau2). */
    String CUSTOMER_MESSAGE = "customer message";

    /** The unit of the benchmarks that cut after the candidate's tool calls (the wiki). */
    String TOOL_CALL = "tool call";

    /**
     * What a cut counts, as a person reads it ("held at {@code <unit> k}"): {@link #CUSTOMER_MESSAGE} or
     * {@link #TOOL_CALL}.
     */
    String cutUnit();

    /**
     * An episode held at a checkpoint: the {@link #cut()}-th unit of the provider's {@link #cutUnit()} has
     * happened and the candidate has not been asked what comes next. Provider-specific but immutable.
     */
    interface Held {
        /** The world at the checkpoint, the value every branch's fork starts from (shared, never copied). */
        Value world();

        /** The log so far in the benchmark's transcript form, the cut's message last. */
        Value transcript();

        /** Which cut (1-based, in the provider's {@link Branching#cutUnit()}) is held. */
        int cut();
    }

    /**
     * Runs the interaction of {@code ctx} (as {@link Protocol#run} would, its world already set up) until
     * the {@code at}-th cut and holds it; IllegalArgumentException, saying how the episode
     * ended, when it ends before that cut; InfrastructureFailure when a model could not be reached on the way.
     */
    Held hold(RunContext ctx, int at) throws InfrastructureFailure;

    /**
     * The protocol of a branch of {@code held}: its world is in the run's fork ({@link RunContext#world()}),
     * the episode goes on from the cut with the run's candidate and runs to its end with the run's
     * models (which may differ from the checkpoint's). The interaction's transcript starts with the held log.
     */
    Protocol resume(Held held);

    /**
     * The decision point at the {@code at}-th cut of a recorded transcript of task
     * {@code env}: the world rebuilt by replaying the record's effects (not its models), the log up to
     * and including that cut, and the record's own next action. IllegalArgumentException when the
     * record has no such cut or does not replay.
     */
    DecisionPoint decisionPoint(EnvironmentDef env, Value transcript, int at);
}
