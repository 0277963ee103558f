package brokkr.domains.tau2.evaluator;

import brokkr.conversation.ModelCall;
import brokkr.domains.tau2.evaluator.Checks.ActionCheck;
import brokkr.domains.tau2.evaluator.Checks.CommunicateCheck;
import brokkr.domains.tau2.evaluator.Checks.DbCheck;
import brokkr.domains.tau2.evaluator.Checks.EnvAssertionCheck;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.model.RewardType;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream {@code RewardInfo} ({@code src/tau2/data_model/simulation.py}) plus which judge ran.
 *
 * @param reward     the product over the reward basis (0 for a premature termination)
 * @param evaluated  false when the episode ended other than by an agent or user stop: upstream then
 *                   evaluates nothing; the deterministic checks here are diagnostics only
 * @param basis      the task's reward basis (null when not evaluated, as upstream)
 * @param breakdown  per-component rewards, in upstream's order (env, action, NL, communicate)
 * @param nl         null when the NL evaluator did not run (not in the basis, or not evaluated)
 * @param judge      the judge's name when it was asked ({@code scripted-gold-verdict}, a model judge's name), else null
 */
public record Grade(
        double reward,
        boolean evaluated,
        List<RewardType> basis,
        Map<RewardType, Double> breakdown,
        DbCheck db,
        List<EnvAssertionCheck> envAssertions,
        List<ActionCheck> actions,
        List<CommunicateCheck> communicate,
        List<NlAssertionCheck> nl,
        String judge,
        List<ModelCall> judgeCalls,
        String note) {

    public Grade {
        basis = basis == null ? null : List.copyOf(basis);
        breakdown = Collections.unmodifiableMap(new LinkedHashMap<>(breakdown));
        envAssertions = List.copyOf(envAssertions);
        actions = List.copyOf(actions);
        communicate = List.copyOf(communicate);
        nl = nl == null ? null : List.copyOf(nl);
        judgeCalls = List.copyOf(judgeCalls);
    }

    /** Upstream {@code is_successful}: reward within 1e-6 of 1. */
    public boolean success() {
        return reward >= 1 - 1e-6 && reward <= 1 + 1e-6;
    }

    /**
     * One boolean per check, keyed {@code DB}, {@code ENV_ASSERTION:<func>}, {@code ACTION:<action_id>},
     * {@code COMMUNICATE:<info>}, {@code NL_ASSERTION:<assertion>}; components outside the basis are
     * included (they are diagnostics upstream too) and can be told apart with {@link #basis}.
     */
    public Map<String, Boolean> checks() {
        Map<String, Boolean> m = new LinkedHashMap<>();
        if (db != null) m.put("DB", db.dbMatch());
        for (EnvAssertionCheck c : envAssertions)
            m.put("ENV_ASSERTION:" + c.assertion().funcName(), c.met());
        for (ActionCheck c : actions) m.put("ACTION:" + c.action().actionId(), c.actionMatch());
        for (CommunicateCheck c : communicate) m.put("COMMUNICATE:" + c.info(), c.met());
        if (nl != null) for (NlAssertionCheck c : nl) m.put("NL_ASSERTION:" + c.nlAssertion(), c.met());
        return m;
    }

    /** The checks that gate the reward (those of components in the basis) and failed. */
    public List<String> failedBasisChecks() {
        if (basis == null) return List.of();
        return checks().entrySet().stream()
                .filter(e -> !e.getValue())
                .filter(e -> basis.contains(componentOf(e.getKey())))
                .map(Map.Entry::getKey)
                .toList();
    }

    /**
     * The grade as JSON (an attempt's {@code details.grade}, an episode log line's {@code grade}):
     * reward, basis, breakdown, every check and the DB hashes, upstream's diagnostics included.
     */
    public PyDict toValue() {
        PyDict.Builder b = PyDict.builder();
        b.put("reward", new PyFloat(reward));
        b.put("evaluated", PyBool.of(evaluated));
        b.put(
                "reward_basis",
                basis == null
                        ? PyNone.NONE
                        : PyList.of(basis.stream()
                                .map(t -> (Value) new PyStr(t.name()))
                                .toList()));
        PyDict.Builder bd = PyDict.builder();
        for (Map.Entry<RewardType, Double> e : breakdown.entrySet())
            bd.put(e.getKey().name(), new PyFloat(e.getValue()));
        b.put("reward_breakdown", bd.build());
        PyDict.Builder cs = PyDict.builder();
        for (Map.Entry<String, Boolean> e : checks().entrySet()) cs.put(e.getKey(), PyBool.of(e.getValue()));
        b.put("checks", cs.build());
        b.put(
                "db_check",
                db == null
                        ? PyNone.NONE
                        : PyDict.of(
                                "db_match",
                                db.dbMatch(),
                                "gold_db_hash",
                                db.goldDbHash(),
                                "predicted_db_hash",
                                db.predictedDbHash(),
                                "gold_user_db_hash",
                                db.goldUserDbHash(),
                                "predicted_user_db_hash",
                                db.predictedUserDbHash()));
        List<Value> nls = new ArrayList<>();
        if (nl != null)
            for (NlAssertionCheck c : nl)
                nls.add(PyDict.of("nl_assertion", c.nlAssertion(), "met", c.met(), "justification", c.justification()));
        b.put("nl_assertions", nl == null ? PyNone.NONE : PyList.of(nls));
        List<Value> comm = new ArrayList<>();
        for (CommunicateCheck c : communicate)
            comm.add(PyDict.of("info", c.info(), "met", c.met(), "justification", c.justification()));
        b.put("communicate_checks", PyList.of(comm));
        b.put("judge", judge == null ? PyNone.NONE : new PyStr(judge));
        b.put("note", note == null ? PyNone.NONE : new PyStr(note));
        return b.build();
    }

    private static RewardType componentOf(String checkKey) {
        int colon = checkKey.indexOf(':');
        return RewardType.valueOf(colon < 0 ? checkKey : checkKey.substring(0, colon));
    }
}
