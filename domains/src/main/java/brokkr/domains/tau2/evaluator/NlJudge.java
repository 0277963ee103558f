package brokkr.domains.tau2.evaluator;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.model.Tau2Message;
import java.util.List;

/**
 * Judges a trajectory against a task's natural-language assertions (upstream
 * {@code NLAssertionsEvaluator.evaluate_nl_assertions}). {@link #name()} is recorded with every grade,
 * so a score always says which judge produced it.
 */
public interface NlJudge {
    String name();

    Verdict judge(List<Tau2Message> trajectory, List<String> nlAssertions) throws InfrastructureFailure;

    /** The checks as the judge returned them, plus the model calls made (none for scripted judges). */
    record Verdict(List<NlAssertionCheck> checks, List<ModelCall> calls) {
        public Verdict {
            checks = List.copyOf(checks);
            calls = List.copyOf(calls);
        }
    }

    /** The judge answered, but not in the shape upstream parses: upstream's evaluation raises there. */
    final class JudgeFormatException extends RuntimeException {
        public JudgeFormatException(String message) {
            super(message);
        }
    }
}
