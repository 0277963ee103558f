package brokkr.domains.tau2.conformance;

import brokkr.domains.tau2.evaluator.Checks.ActionCheck;
import brokkr.domains.tau2.evaluator.Checks.CommunicateCheck;
import brokkr.domains.tau2.evaluator.Checks.EnvAssertionCheck;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.model.EvaluationCriteria;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A Brokkr {@link Grade} as upstream's {@code RewardInfo.model_dump(mode="json")}
 * ({@code src/tau2/data_model/simulation.py}), field for field and in field order, with the None-versus-empty
 * choices of {@code evaluate_simulation} ({@code src/tau2/evaluator/evaluator.py}, {@code EvaluationType.ALL})
 * and of each evaluator's early returns: {@code action_checks} null without gold actions
 * ({@code ActionEvaluator}, "No actions to evaluate"), {@code communicate_checks} null without communicate
 * info, {@code nl_assertions} null when NL_ASSERTION is not in the basis and {@code []} when the task has no
 * assertions, {@code env_assertions} null and no DB breakdown when the task has neither actions nor env
 * assertions ({@code EnvironmentEvaluator}'s short cut). What a results file and a graded corpus record.
 */
public final class UpstreamRewardInfo {
    private UpstreamRewardInfo() {}

    /** Upstream's field order of {@code RewardInfo}. */
    public static final List<String> FIELDS = List.of(
            "reward",
            "db_check",
            "env_assertions",
            "action_checks",
            "nl_assertions",
            "communicate_checks",
            "reward_basis",
            "reward_breakdown",
            "info");

    /**
     * @param toolTypes upstream {@code get_tool_types} of the domain's environment: a tool's type, null when unknown
     */
    public static PyDict of(Grade g, TaskSpec task, Function<String, String> toolTypes) {
        EvaluationCriteria ec = task.criteria();
        if (!g.evaluated()) return premature(g.reward(), PyDict.of("note", g.note()));
        if (ec == null) return premature(1.0, PyDict.of("note", "No evaluation criteria"));
        boolean shortCircuit = ec.actions() == null && ec.envAssertions() == null;

        PyDict.Builder b = PyDict.builder();
        b.put("reward", new PyFloat(g.reward()));
        b.put("db_check", PyDict.of("db_match", g.db().dbMatch(), "db_reward", g.db().dbMatch() ? 1.0 : 0.0));
        if (shortCircuit) {
            b.put("env_assertions", PyNone.NONE);
        } else {
            List<Value> envs = new ArrayList<>();
            for (EnvAssertionCheck c : g.envAssertions()) {
                envs.add(PyDict.of(
                        "env_assertion", envAssertion(c.assertion()), "met", c.met(), "reward", c.met() ? 1.0 : 0.0));
            }
            b.put("env_assertions", PyList.of(envs));
        }
        if (ec.actionsOrEmpty().isEmpty()) {
            b.put("action_checks", PyNone.NONE);
        } else {
            List<Value> actions = new ArrayList<>();
            for (ActionCheck c : g.actions()) {
                String type = toolTypes.apply(c.action().name());
                actions.add(PyDict.of(
                        "action",
                        action(c.action()),
                        "action_match",
                        c.actionMatch(),
                        "action_reward",
                        c.actionMatch() ? 1.0 : 0.0,
                        "tool_type",
                        type == null ? PyNone.NONE : new PyStr(type)));
            }
            b.put("action_checks", PyList.of(actions));
        }
        if (g.nl() == null) {
            b.put("nl_assertions", PyNone.NONE);
        } else {
            List<Value> nl = new ArrayList<>();
            for (NlAssertionCheck c : g.nl())
                nl.add(PyDict.of("nl_assertion", c.nlAssertion(), "met", c.met(), "justification", c.justification()));
            b.put("nl_assertions", PyList.of(nl));
        }
        boolean noCommunicate =
                ec.communicateInfo() == null || ec.communicateInfo().isEmpty();
        if (noCommunicate) {
            b.put("communicate_checks", PyNone.NONE);
        } else {
            List<Value> comm = new ArrayList<>();
            for (CommunicateCheck c : g.communicate())
                comm.add(PyDict.of("info", c.info(), "met", c.met(), "justification", c.justification()));
            b.put("communicate_checks", PyList.of(comm));
        }
        List<Value> basis = new ArrayList<>();
        for (RewardType t : ec.rewardBasis()) basis.add(new PyStr(t.name()));
        b.put("reward_basis", PyList.of(basis));
        PyDict.Builder breakdown = PyDict.builder();
        for (Map.Entry<RewardType, Double> e : g.breakdown().entrySet())
            breakdown.put(e.getKey().name(), new PyFloat(e.getValue()));
        b.put("reward_breakdown", breakdown.build());
        boolean nlRan = ec.basisIncludes(RewardType.NL_ASSERTION);
        b.put(
                "info",
                PyDict.builder()
                        .put(
                                "env",
                                shortCircuit ? PyDict.of("note", "No expected actions or env assertions") : PyNone.NONE)
                        .put(
                                "nl",
                                !nlRan
                                        ? PyNone.NONE
                                        : ec.nlAssertions() == null
                                                        || ec.nlAssertions().isEmpty()
                                                ? PyDict.of("note", "No nl_assertions to evaluate")
                                                : PyNone.NONE)
                        .put(
                                "communicate",
                                noCommunicate ? PyDict.of("note", "No communicate_info to evaluate") : PyNone.NONE)
                        .put(
                                "action",
                                ec.actionsOrEmpty().isEmpty()
                                        ? PyDict.of("note", "No actions to evaluate")
                                        : PyNone.NONE)
                        .build());
        return b.build();
    }

    /** A RewardInfo with only a reward and a note (upstream's early returns); the basis is null. */
    private static PyDict premature(double reward, PyDict info) {
        return PyDict.builder()
                .put("reward", new PyFloat(reward))
                .put("db_check", PyNone.NONE)
                .put("env_assertions", PyNone.NONE)
                .put("action_checks", PyNone.NONE)
                .put("nl_assertions", PyNone.NONE)
                .put("communicate_checks", PyNone.NONE)
                .put("reward_basis", PyNone.NONE)
                .put("reward_breakdown", PyNone.NONE)
                .put("info", info)
                .build();
    }

    /** {@code Action.model_dump(mode="json")}. */
    static PyDict action(GoldAction a) {
        List<Value> compare = null;
        if (a.compareArgs() != null) {
            compare = new ArrayList<>();
            for (String s : a.compareArgs()) compare.add(new PyStr(s));
        }
        return PyDict.builder()
                .put("action_id", a.actionId())
                .put("requestor", a.requestor().wire())
                .put("name", a.name())
                .put("arguments", a.arguments())
                .put("info", a.info() == null ? PyNone.NONE : new PyStr(a.info()))
                .put("compare_args", compare == null ? PyNone.NONE : PyList.of(compare))
                .build();
    }

    /** {@code EnvAssertion.model_dump(mode="json")}. */
    static PyDict envAssertion(EnvAssertion a) {
        return PyDict.builder()
                .put("env_type", a.envType().wire())
                .put("func_name", a.funcName())
                .put("arguments", a.arguments())
                .put("assert_value", PyBool.of(a.assertValue()))
                .put("message", a.message() == null ? PyNone.NONE : new PyStr(a.message()))
                .build();
    }
}
