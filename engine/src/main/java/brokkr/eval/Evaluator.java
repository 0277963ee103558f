package brokkr.eval;

import brokkr.conversation.InfrastructureFailure;

/**
 * Observes a finished run (its final world and the protocol's portable output), verifies the
 * setup's evidence and grades: one boolean {@link Check} per reason a candidate can lose, a reward and
 * the trust tier of this verdict. Judge models come from {@code models}; their calls are recorded
 * with the attempt but are not the candidate's usage.
 */
@FunctionalInterface
public interface Evaluator {
    Verdict evaluate(FinishedRun run, Models models) throws InfrastructureFailure;
}
