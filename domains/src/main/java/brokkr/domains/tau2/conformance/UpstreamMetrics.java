package brokkr.domains.tau2.conformance;

import brokkr.experiment.PassHatK;
import brokkr.python.NumpyFloats;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Upstream's {@code compute_metrics(results).model_dump(mode="json")} ({@code src/tau2/metrics/agent_metrics.py},
 * what {@code tau2 view} shows) over a results file's JSON: average reward, pass^k for k up to the fewest
 * trials of any task, average agent cost, the action, DB, auth and termination counts and the review tallies.
 * Infrastructure errors are excluded from everything but their own count. Means are pandas' (numpy's pairwise
 * sum, {@link NumpyFloats}); pass^k is averaged over tasks in upstream's order (grouped by task id, then sorted
 * by the task's number of gold actions, ties keeping task-id order).
 */
public final class UpstreamMetrics {
    private UpstreamMetrics() {}

    private static final String INFRA = "infrastructure_error";

    public static PyDict compute(PyDict results) {
        List<PyDict> sims = new ArrayList<>();
        for (Value v : results.get("simulations").asList()) sims.add(v.asDict());
        if (sims.isEmpty()) return build(0.0, PyDict.empty(), 0.0, new Counts());
        Counts c = new Counts();
        List<PyDict> evaluated = new ArrayList<>();
        for (PyDict s : sims) {
            if (INFRA.equals(str(s.get("termination_reason")))) c.infra++;
            else evaluated.add(s);
        }
        if (evaluated.isEmpty()) return build(0.0, PyDict.empty(), 0.0, c);

        Map<String, PyDict> tasks = new HashMap<>();
        for (Value t : results.get("tasks").asList())
            tasks.put(t.asDict().get("id").asStr(), t.asDict());
        // get_metrics_df: success per simulation; max k = info.num_trials, lowered to the fewest trials of a task.
        Map<String, int[]> perTask = new TreeMap<>(); // task id (sorted as groupby sorts) -> [trials, successes]
        List<Double> rewards = new ArrayList<>(), costs = new ArrayList<>();
        for (PyDict s : evaluated) {
            Double reward = s.get("reward_info") instanceof PyDict ri ? number(ri.get("reward")) : null;
            if (reward != null) rewards.add(reward);
            Double cost = number(s.get("agent_cost"));
            if (cost != null) costs.add(cost);
            int[] t = perTask.computeIfAbsent(s.get("task_id").asStr(), k -> new int[2]);
            t[0]++;
            if (reward != null && reward >= 1 - 1e-6 && reward <= 1 + 1e-6) t[1]++;
        }
        int maxK = (int) ((PyInt) results.get("info").asDict().get("num_trials")).longValue();
        for (int[] t : perTask.values()) maxK = Math.min(maxK, t[0]);
        List<String> order = new ArrayList<>(perTask.keySet());
        order.sort(Comparator.comparingInt(id -> numActions(tasks.get(id)))); // stable: ties keep task-id order
        PyDict.Builder passHat = PyDict.builder();
        for (int k = 1; k <= maxK; k++) {
            double[] perTaskValues = new double[order.size()];
            for (int i = 0; i < order.size(); i++) {
                int[] t = perTask.get(order.get(i));
                // math.comb as PassHatK has it; the quotient of the two doubles, as the recorded metrics were computed
                perTaskValues[i] = PassHatK.comb(t[1], k).doubleValue()
                        / PassHatK.comb(t[0], k).doubleValue();
            }
            passHat.put(Integer.toString(k), new PyFloat(NumpyFloats.mean(perTaskValues)));
        }
        c.simulations = evaluated.size();
        c.tasks = perTask.size();
        for (PyDict s : evaluated) c.add(s);
        return build(NumpyFloats.mean(unbox(rewards)), passHat.build(), NumpyFloats.mean(unbox(costs)), c);
    }

    /** {@code AgentMetrics.as_dict()}: the headline numbers with {@code pass_hat_k} keys. */
    public static PyDict asDict(PyDict metrics) {
        PyDict.Builder b = PyDict.builder();
        for (String k :
                List.of("avg_reward", "avg_agent_cost", "total_simulations", "total_tasks", "infra_error_count"))
            b.put(k, metrics.get(k));
        for (var e : metrics.get("pass_hat_ks").asDict().entries()) b.put("pass_hat_" + e.getKey(), e.getValue());
        return b.build();
    }

    /** The tallies of {@code compute_metrics}' loop over the evaluated simulations. */
    private static final class Counts {
        int simulations, tasks, infra;
        int readTotal, readCorrect, writeTotal, writeCorrect;
        int dbMatch, dbMismatch, dbNotChecked;
        int authSucceeded, authFailed, authNotNeeded, authNotChecked;
        int userStop, agentStop, maxSteps, error;
        int unresponsive, responsivenessInfo;
        final Map<String, Integer> agentErrors = new LinkedHashMap<>(), userErrors = new LinkedHashMap<>();
        final Map<String, Integer> maxAgent = new LinkedHashMap<>(),
                maxUser = new LinkedHashMap<>(),
                firstCritical = new LinkedHashMap<>();
        final Map<String, Map<String, Integer>> agentTags = new LinkedHashMap<>(), userTags = new LinkedHashMap<>();

        void add(PyDict s) {
            if (s.get("reward_info") instanceof PyDict ri) {
                if (ri.get("action_checks") instanceof PyList checks && !checks.isEmpty()) {
                    for (Value v : checks) {
                        PyDict a = v.asDict();
                        boolean match = a.get("action_match") instanceof PyBool b && b.value();
                        String type = str(a.get("tool_type"));
                        if ("read".equals(type)) {
                            readTotal++;
                            if (match) readCorrect++;
                        }
                        if ("write".equals(type)) {
                            writeTotal++;
                            if (match) writeCorrect++;
                        }
                    }
                }
                if (ri.get("db_check") instanceof PyDict db) {
                    if (db.get("db_match") instanceof PyBool b && b.value()) dbMatch++;
                    else dbMismatch++;
                } else {
                    dbNotChecked++;
                }
            } else {
                dbNotChecked++;
            }
            if (s.get("auth_classification") instanceof PyDict auth) {
                switch (String.valueOf(str(auth.get("status")))) {
                    case "succeeded" -> authSucceeded++;
                    case "failed" -> authFailed++;
                    default -> authNotNeeded++;
                }
            } else {
                authNotChecked++;
            }
            switch (String.valueOf(str(s.get("termination_reason")))) {
                case "user_stop" -> userStop++;
                case "agent_stop" -> agentStop++;
                case "max_steps" -> maxSteps++;
                case "too_many_errors", "agent_error", "user_error" -> error++;
                default -> {}
            }
            if (s.get("info") instanceof PyDict info && info.containsKey("had_unresponsive_period")) {
                responsivenessInfo++;
                if (truthy(info.get("had_unresponsive_period"))) unresponsive++;
            }
            if (s.get("review") instanceof PyDict review) {
                List<PyDict> errors = errors(review);
                List<PyDict> agent = errors.stream()
                        .filter(e -> "agent".equals(str(e.get("source"))))
                        .toList();
                List<PyDict> user = errors.stream()
                        .filter(e -> "user".equals(str(e.get("source"))))
                        .toList();
                if (!agent.isEmpty()) {
                    String max = "none";
                    for (PyDict e : agent) {
                        String sev = severity(e);
                        bump(agentErrors, sev);
                        if (sev.equals("critical")) max = "critical";
                        else if (sev.equals("minor") && !max.equals("critical")) max = "minor";
                        else if (max.equals("none")) max = sev;
                        for (String tag : tags(e))
                            bump(agentTags.computeIfAbsent(tag, k -> new LinkedHashMap<>()), sev);
                    }
                    bump(maxAgent, max);
                } else {
                    bump(maxAgent, "none");
                }
                if (!user.isEmpty()) bump(maxUser, userMax(user));
                else bump(maxUser, "none");
                PyDict first = null;
                double firstAt = Double.POSITIVE_INFINITY;
                for (PyDict e : errors) {
                    String src = str(e.get("source")), sev = str(e.get("severity"));
                    boolean critical = ("agent".equals(src) && "critical".equals(sev))
                            || ("user".equals(src)
                                    && ("critical_helped".equals(sev) || "critical_hindered".equals(sev)));
                    if (!critical) continue;
                    double at = e.get("tick_start") instanceof PyInt t
                            ? t.longValue()
                            : e.get("turn_idx") instanceof PyInt t2 ? t2.longValue() : Double.POSITIVE_INFINITY;
                    if (first == null || at < firstAt) {
                        first = e;
                        firstAt = at;
                    } // min() keeps the first of equals
                }
                bump(firstCritical, first == null ? "none" : str(first.get("source")));
            } else if (s.get("user_only_review") instanceof PyDict review) {
                List<PyDict> user = errors(review);
                bump(maxAgent, "none");
                if (!user.isEmpty()) {
                    bump(maxUser, userMax(user));
                    boolean critical = user.stream()
                            .anyMatch(e -> "critical_helped".equals(str(e.get("severity")))
                                    || "critical_hindered".equals(str(e.get("severity"))));
                    bump(firstCritical, critical ? "user" : "none");
                } else {
                    bump(maxUser, "none");
                    bump(firstCritical, "none");
                }
            }
        }

        private String userMax(List<PyDict> user) {
            String max = "none";
            for (PyDict e : user) {
                String sev = severity(e);
                bump(userErrors, sev);
                if (sev.equals("critical_helped") || sev.equals("critical_hindered")) max = sev;
                else if (sev.equals("minor") && !max.equals("critical_helped") && !max.equals("critical_hindered"))
                    max = "minor";
                else if (max.equals("none")) max = sev;
                for (String tag : tags(e)) bump(userTags.computeIfAbsent(tag, k -> new LinkedHashMap<>()), sev);
            }
            return max;
        }
    }

    private static PyDict build(double avgReward, PyDict passHat, double avgCost, Counts c) {
        return PyDict.builder()
                .put("avg_reward", new PyFloat(avgReward))
                .put("pass_hat_ks", passHat)
                .put("avg_agent_cost", new PyFloat(avgCost))
                .put("total_simulations", c.simulations)
                .put("total_tasks", c.tasks)
                .put("infra_error_count", c.infra)
                .put("total_read_actions", c.readTotal)
                .put("correct_read_actions", c.readCorrect)
                .put("total_write_actions", c.writeTotal)
                .put("correct_write_actions", c.writeCorrect)
                .put("db_match_count", c.dbMatch)
                .put("db_mismatch_count", c.dbMismatch)
                .put("db_not_checked", c.dbNotChecked)
                .put("auth_succeeded", c.authSucceeded)
                .put("auth_failed", c.authFailed)
                .put("auth_not_needed", c.authNotNeeded)
                .put("auth_not_checked", c.authNotChecked)
                .put("termination_user_stop", c.userStop)
                .put("termination_agent_stop", c.agentStop)
                .put("termination_max_steps", c.maxSteps)
                .put("termination_error", c.error)
                .put("termination_infrastructure_error", c.infra)
                .put("sims_with_unresponsive_period", c.unresponsive)
                .put("sims_with_responsiveness_info", c.responsivenessInfo)
                .put("agent_errors_by_severity", counts(c.agentErrors))
                .put("user_errors_by_severity", counts(c.userErrors))
                .put("sims_by_max_agent_severity", counts(c.maxAgent))
                .put("sims_by_max_user_severity", counts(c.maxUser))
                .put("sims_by_first_critical_source", counts(c.firstCritical))
                .put("agent_error_tags_by_severity", nested(c.agentTags))
                .put("user_error_tags_by_severity", nested(c.userTags))
                .build();
    }

    /** {@code len(actions)} of the task's gold actions by requestor; -1 for a lone transfer ({@code Results._task_metrics}). */
    static int numActions(PyDict task) {
        if (task == null
                || !(task.get("evaluation_criteria") instanceof PyDict ec)
                || !(ec.get("actions") instanceof PyList actions)) return 0;
        if (actions.size() == 1
                && actions.get(0)
                        .asDict()
                        .get("name")
                        .asStr()
                        .toLowerCase(Locale.ROOT)
                        .contains("transfer")) return -1;
        int n = 0;
        for (Value a : actions) {
            String r = str(a.asDict().get("requestor"));
            if (r == null || r.equals("assistant") || r.equals("user")) n++;
        }
        return n;
    }

    private static List<PyDict> errors(PyDict review) {
        List<PyDict> out = new ArrayList<>();
        if (review.get("errors") instanceof PyList l) for (Value v : l) out.add(v.asDict());
        return out;
    }

    private static String severity(PyDict e) {
        String s = str(e.get("severity"));
        return s == null || s.isEmpty() ? "unknown" : s;
    }

    private static List<String> tags(PyDict e) {
        List<String> out = new ArrayList<>();
        if (e.get("error_tags") instanceof PyList l) for (Value v : l) out.add(v.asStr());
        return out;
    }

    private static void bump(Map<String, Integer> m, String k) {
        m.merge(k, 1, Integer::sum);
    }

    private static PyDict counts(Map<String, Integer> m) {
        PyDict.Builder b = PyDict.builder();
        m.forEach(b::put);
        return b.build();
    }

    private static PyDict nested(Map<String, Map<String, Integer>> m) {
        PyDict.Builder b = PyDict.builder();
        m.forEach((k, v) -> b.put(k, counts(v)));
        return b.build();
    }

    private static boolean truthy(Value v) {
        return switch (v) {
            case PyBool b -> b.value();
            case PyInt i -> i.value().signum() != 0;
            case PyStr s -> !s.value().isEmpty();
            default -> !v.isNone();
        };
    }

    private static Double number(Value v) {
        if (v instanceof PyFloat f) return f.value();
        if (v instanceof PyInt i) return i.value().doubleValue();
        return null;
    }

    private static double[] unbox(List<Double> xs) {
        double[] a = new double[xs.size()];
        for (int i = 0; i < a.length; i++) a[i] = xs.get(i);
        return a;
    }

    private static String str(Value v) {
        return v instanceof PyStr s ? s.value() : null;
    }
}
