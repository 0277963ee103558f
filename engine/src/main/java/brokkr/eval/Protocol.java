package brokkr.eval;

import brokkr.conversation.InfrastructureFailure;

/**
 * The interaction the run hosts (tau2's conversation, BFCL's single step, a synthetic tool loop). It
 * works on {@link RunContext#world()} and returns portable data, never the grade: grading belongs to
 * the {@link Evaluator}, behind the provider's boundary.
 */
@FunctionalInterface
public interface Protocol {
    Interaction run(RunContext ctx) throws InfrastructureFailure;
}
