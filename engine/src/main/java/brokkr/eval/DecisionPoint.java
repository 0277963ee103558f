package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * One decision of a recorded episode, rebuilt ({@link Branching#decisionPoint}): the customer's message
 * the candidate must answer, with everything before it. A probe samples only that answer, a candidate
 * turn per sample instead of an episode.
 */
public interface DecisionPoint {
    /** The task's definition. */
    EnvironmentDef env();

    /** Which customer message (1-based) is answered. */
    int at();

    /** What the candidate is given: the system prompt, then the recorded dialogue up to the cut (its own tool traffic included). */
    List<Message> history();

    /** The tools on offer. */
    List<ToolSpec> tools();

    /** The customer's message at the cut. */
    String customerMessage();

    /** The record's own next action at the cut (the gold label), empty when the record ends there. */
    Optional<NextAction> recorded();

    /**
     * One answer of {@code candidate} to the customer's message; its tool calls are executed on the
     * rebuilt world as the episode would have executed them (the world itself is unchanged). A failing
     * candidate gives a {@link NextAction.Kind#FAILED} action, never an exception.
     */
    NextAction answer(Candidate candidate);

    /**
     * {@code model}'s answer under the harness {@code harness} ({@link AgentDef#harness}'s value; empty: the
     * benchmark's reference agent, {@link #answer(Candidate)}). A loop harness answers with its whole turn
     * ({@link NextAction#turn}): the working conversation starts from the recorded dialogue, its calls are
     * executed on the rebuilt world and answered, and its reply to the customer ends the sample. A benchmark
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
