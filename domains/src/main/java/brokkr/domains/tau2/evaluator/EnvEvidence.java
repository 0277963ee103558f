package brokkr.domains.tau2.evaluator;

import brokkr.domains.tau2.evaluator.Checks.EnvAssertionCheck;
import java.util.List;

/**
 * What the environment contributes to a grade, computed by the episode host: the gold environment's
 * hashes (fresh world, initial state, gold actions replayed the grader's way), the episode's final
 * world hashes, and the env assertions evaluated on that final world. User hashes are null for domains
 * without a user DB.
 */
public record EnvEvidence(
        String goldDbHash,
        String goldUserDbHash,
        String predictedDbHash,
        String predictedUserDbHash,
        List<EnvAssertionCheck> envAssertions,
        List<String> goldActionErrors) {
    public EnvEvidence {
        envAssertions = List.copyOf(envAssertions);
        goldActionErrors = List.copyOf(goldActionErrors);
    }
}
