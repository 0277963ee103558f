package brokkr.domains.tau2.runner;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.ModelRef;
import brokkr.eval.Rejudging;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * tau2's NL assertions judged again from an attempt's record: upstream's judge request
 * ({@link ModelNlJudge}: its exact prompts over the recorded trajectory and the task's assertions),
 * the new NL component in place of the recorded one, and the reward as the product over the
 * recorded breakdown with that component replaced (zero when the setup was not verified, as the
 * evaluator scores it). Only episodes the judge was asked about when they ran are re-judged:
 * upstream asks it only after a normal stop, with NL_ASSERTION in the basis and assertions to judge.
 */
record Tau2Rejudging(Tau2Benchmark benchmark) implements Rejudging {
    private static final String NL_CHECK = RewardType.NL_ASSERTION.name().toLowerCase(Locale.ROOT);

    @Override
    public ModelRef judge(String provider, String model) {
        return Tau2Benchmark.upstreamModel(provider, model, "judge");
    }

    @Override
    public Optional<Rejudged> rejudge(EnvironmentDef env, Attempt attempt, Candidate judge)
            throws InfrastructureFailure {
        if (!attempt.completed() || !(attempt.evidence().details().get("grade") instanceof PyDict grade))
            return Optional.empty();
        if (!(grade.get("evaluated") instanceof PyBool evaluated)
                || !evaluated.value()
                || !(grade.get("nl_assertions") instanceof PyList recorded)
                || !(grade.get("judge") instanceof PyStr)) {
            return Optional.empty();
        }
        TaskSpec task = benchmark.domain().task(env.taskId());
        List<String> assertions = task.criteria() == null || task.criteria().nlAssertions() == null
                ? List.of()
                : task.criteria().nlAssertions();
        if (assertions.isEmpty()) return Optional.empty();
        List<Tau2Message> trajectory =
                Tau2Transcript.fromValue(attempt.evidence().transcript());
        List<NlAssertionCheck> now;
        try {
            now = new ModelNlJudge("regrade", judge)
                    .judge(trajectory, assertions)
                    .checks();
        } catch (NlJudge.JudgeFormatException e) {
            // As the evaluator treats it: upstream's evaluation raises, which is no verdict (the call is recorded).
            throw new InfrastructureFailure("judge: " + e.getMessage(), List.of(), e);
        }
        // Upstream's judge restates each assertion in its own words and nothing pairs them with the
        // task's; both answers are read in the task's order, as the judge is asked to answer.
        List<Judgement> judgements = new ArrayList<>();
        for (int i = 0; i < Math.max(assertions.size(), Math.max(recorded.size(), now.size())); i++) {
            PyDict r = i < recorded.size() ? recorded.items().get(i).asDict() : null;
            NlAssertionCheck n = i < now.size() ? now.get(i) : null;
            String statement = i < assertions.size()
                    ? assertions.get(i)
                    : n != null ? n.nlAssertion() : r.get("nl_assertion").asStr();
            judgements.add(new Judgement(
                    statement,
                    r == null ? null : ((PyBool) r.get("met")).value(),
                    n == null ? null : n.met(),
                    n == null ? null : n.justification()));
        }
        // Upstream: the NL reward is 1 when every check the judge listed is met (an empty list passes).
        boolean nlMet = now.stream().allMatch(NlAssertionCheck::met);
        double reward = attempt.check("setup_verified").map(Check::passed).orElse(true) ? 1.0 : 0.0;
        for (var e : grade.get("reward_breakdown").asDict().entries()) {
            reward *= e.getKey().equals(RewardType.NL_ASSERTION.name()) ? (nlMet ? 1.0 : 0.0) : number(e.getValue());
        }
        List<Check> checks = attempt.checks().stream()
                .map(c -> c.name().equals(NL_CHECK) ? new Check(NL_CHECK, nlMet) : c)
                .toList();
        return Optional.of(new Rejudged(judgements, reward, checks));
    }

    private static double number(Value v) {
        return v instanceof PyInt i ? i.value().doubleValue() : ((PyFloat) v).value();
    }
}
