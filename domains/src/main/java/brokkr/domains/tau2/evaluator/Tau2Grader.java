package brokkr.domains.tau2.evaluator;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import brokkr.domains.tau2.evaluator.Checks.ActionCheck;
import brokkr.domains.tau2.evaluator.Checks.CommunicateCheck;
import brokkr.domains.tau2.evaluator.Checks.DbCheck;
import brokkr.domains.tau2.evaluator.Checks.EnvAssertionCheck;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.model.EvaluationCriteria;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Upstream's grading of one finished episode ({@code evaluate_simulation} with
 * {@code EvaluationType.ALL}, {@code src/tau2/evaluator/evaluator.py}): the reward is the product of
 * the components in the task's reward basis; the NL judge is asked only when NL_ASSERTION is in the
 * basis and the task has assertions.
 */
public final class Tau2Grader {
    private Tau2Grader() {}

    /**
     * @param stoppedNormally whether the episode ended by an agent or user stop; otherwise the reward is 0
     *                        and nothing is evaluated upstream (checks here are diagnostics)
     * @param termination     the termination reason's upstream value, for the note
     */
    public static Grade grade(
            TaskSpec task,
            List<Tau2Message> trajectory,
            boolean stoppedNormally,
            String termination,
            EnvEvidence env,
            NlJudge judge)
            throws InfrastructureFailure {
        EvaluationCriteria ec = task.criteria();
        if (!stoppedNormally) {
            DbCheck db = ec == null ? null : dbCheck(ec, env);
            List<ActionCheck> actions = ec == null ? List.of() : ActionEvaluator.check(trajectory, ec.actionsOrEmpty());
            List<CommunicateCheck> comm = ec == null || ec.communicateInfo() == null
                    ? List.of()
                    : CommunicateEvaluator.check(trajectory, ec.communicateInfo());
            return new Grade(
                    0.0,
                    false,
                    null,
                    Map.of(),
                    db,
                    env.envAssertions(),
                    actions,
                    comm,
                    null,
                    null,
                    List.of(),
                    "Simulation terminated prematurely. Termination reason: " + termination);
        }
        if (ec == null) {
            return new Grade(
                    1.0,
                    true,
                    null,
                    Map.of(),
                    null,
                    List.of(),
                    List.of(),
                    List.of(),
                    null,
                    null,
                    List.of(),
                    "No evaluation criteria");
        }
        Map<RewardType, Double> breakdown = new LinkedHashMap<>();
        double reward = 1.0;

        // EnvironmentEvaluator.calculate_reward: without actions and env assertions no env is built and
        // the DB counts as matched, with no breakdown entry.
        DbCheck db = dbCheck(ec, env);
        List<EnvAssertionCheck> envChecks = env.envAssertions();
        boolean shortCircuit = ec.actions() == null && ec.envAssertions() == null;
        if (ec.basisIncludes(RewardType.DB) || ec.basisIncludes(RewardType.ENV_ASSERTION)) {
            if (!shortCircuit) {
                double dbReward = db.dbMatch() ? 1.0 : 0.0;
                double envReward = envChecks.stream().allMatch(EnvAssertionCheck::met) ? 1.0 : 0.0;
                if (ec.basisIncludes(RewardType.DB)) {
                    breakdown.put(RewardType.DB, dbReward);
                    reward *= dbReward;
                }
                if (ec.basisIncludes(RewardType.ENV_ASSERTION)) {
                    breakdown.put(RewardType.ENV_ASSERTION, envReward);
                    reward *= envReward;
                }
            }
        }
        if (shortCircuit) envChecks = List.of();

        List<ActionCheck> actions = ActionEvaluator.check(trajectory, ec.actionsOrEmpty());
        if (ec.basisIncludes(RewardType.ACTION)) {
            double r = actions.stream().allMatch(ActionCheck::actionMatch) ? 1.0 : 0.0;
            breakdown.put(RewardType.ACTION, r);
            reward *= r;
        }

        List<NlAssertionCheck> nl = null;
        String judgeName = null;
        List<ModelCall> judgeCalls = List.of();
        if (ec.basisIncludes(RewardType.NL_ASSERTION)) {
            double r = 1.0;
            if (ec.nlAssertions() == null || ec.nlAssertions().isEmpty()) {
                nl = List.of();
            } else {
                NlJudge.Verdict v =
                        Objects.requireNonNull(judge, "task needs an NL judge").judge(trajectory, ec.nlAssertions());
                nl = v.checks();
                judgeName = judge.name();
                judgeCalls = v.calls();
                r = nl.stream().allMatch(NlAssertionCheck::met) ? 1.0 : 0.0;
            }
            breakdown.put(RewardType.NL_ASSERTION, r);
            reward *= r;
        }

        List<CommunicateCheck> comm =
                ec.communicateInfo() == null ? List.of() : CommunicateEvaluator.check(trajectory, ec.communicateInfo());
        if (ec.basisIncludes(RewardType.COMMUNICATE)) {
            double r = comm.stream().allMatch(CommunicateCheck::met) ? 1.0 : 0.0;
            breakdown.put(RewardType.COMMUNICATE, r);
            reward *= r;
        }
        return new Grade(
                reward,
                true,
                ec.rewardBasis(),
                breakdown,
                db,
                envChecks,
                actions,
                comm,
                nl,
                judgeName,
                judgeCalls,
                null);
    }

    /** Upstream {@code DBCheck}: agent and user DB hashes both equal to the gold environment's. */
    static DbCheck dbCheck(EvaluationCriteria ec, EnvEvidence env) {
        if (ec.actions() == null && ec.envAssertions() == null) {
            return new DbCheck(
                    true, env.goldDbHash(), env.predictedDbHash(), env.goldUserDbHash(), env.predictedUserDbHash());
        }
        boolean match = Objects.equals(env.goldDbHash(), env.predictedDbHash())
                && Objects.equals(env.goldUserDbHash(), env.predictedUserDbHash());
        return new DbCheck(
                match, env.goldDbHash(), env.predictedDbHash(), env.goldUserDbHash(), env.predictedUserDbHash());
    }
}
