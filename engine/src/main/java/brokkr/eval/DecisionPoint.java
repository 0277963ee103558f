package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * One decision of a recorded episode, rebuilt ({@link Branching#decisionPoint}): the message at the cut
 * the candidate must answer (tau2: the customer's; the wiki: its k-th tool call's result), with everything
 * before it. A probe samples only that answer, a candidate turn per sample instead of an episode.
 */
public interface DecisionPoint {
    /** The task's definition. */
    EnvironmentDef env();

    /** Which cut (1-based, in the benchmark's {@link Branching#cutUnit()}) is answered. */
    int at();

    /** What {@link #at()} counts: the benchmark's {@link Branching#cutUnit()}. */
    String cutUnit();

    /** What the candidate is given: the system prompt, then the recorded dialogue up to the cut (its own tool traffic included). */
    List<Message> history();

    /** The tools on offer. */
    List<ToolSpec> tools();

    /** The message at the cut that the candidate answers: the customer's (tau2), the k-th tool call's result (wiki). */
    String cutMessage();

    /** The record's own next action at the cut (the gold label), empty when the record ends there. */
    Optional<NextAction> recorded();

    /**
     * One answer of {@code candidate} to the message at the cut; its tool calls are executed on the
     * rebuilt world as the episode would have executed them (the world itself is unchanged). A failing
     * candidate gives a {@link NextAction.Kind#FAILED} action, never an exception.
     */
    NextAction answer(Candidate candidate);

    /**
     * {@code model}'s answer under the harness {@code harness} ({@link AgentDef#harness}'s value; empty: the
     * benchmark's reference agent, {@link #answer(Candidate)}). Under a loop harness the working conversation starts
     * from the recorded dialogue and its calls are executed on the rebuilt world and answered; what ends the sample
     * is the benchmark's next unit: tau2's whole turn, its reply to the customer ({@link NextAction#turn}), the
     * wiki's next protocol call (or its final answer). A benchmark
     * whose decision points take no other harness refuses it (IllegalArgumentException), before any sample runs
     * when asked with a null model ({@link #checkHarness}).
     */
    default NextAction answer(Candidate model, brokkr.value.PyDict harness) {
        checkHarness(harness);
        return answer(model);
    }

    /** Refuses a harness this decision point cannot drive (IllegalArgumentException); by default any but the reference one. */
    default void checkHarness(brokkr.value.PyDict harness) {
        if (harness != null && !harness.isEmpty())
            throw new IllegalArgumentException(
                    "this benchmark's decision points are answered by its reference agent only, not harness "
                            + harness);
    }
}
