package brokkr.domains.tau2.model;

import java.util.List;

/**
 * Upstream {@code EvaluationCriteria}. Lists that upstream declares {@code Optional} stay null when
 * absent, because upstream distinguishes them: {@code actions is None and env_assertions is None}
 * short-circuits the DB check to a match ({@code EnvironmentEvaluator.calculate_reward}).
 */
public record EvaluationCriteria(
        List<GoldAction> actions,
        List<EnvAssertion> envAssertions,
        List<String> communicateInfo,
        List<String> nlAssertions,
        List<RewardType> rewardBasis) {
    public EvaluationCriteria {
        actions = actions == null ? null : List.copyOf(actions);
        envAssertions = envAssertions == null ? null : List.copyOf(envAssertions);
        communicateInfo = communicateInfo == null ? null : List.copyOf(communicateInfo);
        nlAssertions = nlAssertions == null ? null : List.copyOf(nlAssertions);
        rewardBasis = List.copyOf(rewardBasis);
    }

    public List<GoldAction> actionsOrEmpty() {
        return actions == null ? List.of() : actions;
    }

    public boolean basisIncludes(RewardType t) {
        return rewardBasis.contains(t);
    }
}
