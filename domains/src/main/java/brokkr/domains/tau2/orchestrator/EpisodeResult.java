package brokkr.domains.tau2.orchestrator;

import brokkr.domains.tau2.model.TerminationReason;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.model.Tau2Message;
import java.util.List;

/**
 * Everything one tau2 episode produced: the full transcript (every message, every tool call with its
 * result and error flag), why it ended, the grade with one boolean per check, token usage per side, wall
 * time, and the exact model requests made (every attempt, per side).
 *
 * @param judge           the configured NL judge's name (e.g. {@code scripted-gold-verdict}); whether it
 *                        was actually asked is {@code grade.judge() != null}
 * @param grade           null when grading itself failed ({@link #gradingFailure})
 * @param gradingFailure  why grading could not finish (judge unreachable or unparsable), else null;
 *                        upstream's evaluation raises there and its runner records an infrastructure error
 */
public record EpisodeResult(String taskId, String agent, String user, String judge,
                            List<Tau2Message> transcript, TerminationReason termination, String note,
                            Grade grade, String gradingFailure,
                            int steps, int toolErrors, Usage agentUsage, Usage userUsage, long durationMillis,
                            List<ModelCall> agentCalls, List<ModelCall> userCalls, List<ModelCall> judgeCalls,
                            String initialDbHash, String finalDbHash) {
    public EpisodeResult {
        transcript = List.copyOf(transcript);
        agentCalls = List.copyOf(agentCalls);
        userCalls = List.copyOf(userCalls);
        judgeCalls = List.copyOf(judgeCalls);
    }

    /** Excluded from metrics, as upstream excludes {@code infrastructure_error} simulations. */
    public boolean infrastructureFailure() {
        return termination == TerminationReason.INFRASTRUCTURE_ERROR || gradingFailure != null;
    }

    /** The reward; 0 when grading failed. */
    public double reward() { return grade == null ? 0.0 : grade.reward(); }
}
