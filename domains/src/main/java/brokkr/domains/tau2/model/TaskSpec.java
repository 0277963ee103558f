package brokkr.domains.tau2.model;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of an upstream {@code Task} ({@code src/tau2/data_model/tasks.py}) that the episode
 * protocol and the grader read, parsed from the task's JSON object. {@code raw} keeps the whole task
 * for domains that need more (user scenario, initial state).
 */
public record TaskSpec(String id, PyDict raw, EvaluationCriteria criteria) {

    /** Upstream's default reward basis when a task gives none: {@code [DB, COMMUNICATE]}. */
    static final List<RewardType> DEFAULT_BASIS = List.of(RewardType.DB, RewardType.COMMUNICATE);

    public static TaskSpec parse(PyDict task) {
        String id = task.get("id").asStr();
        Value ec = task.get("evaluation_criteria");
        EvaluationCriteria criteria = ec == null || ec.isNone() ? null : parseCriteria(ec.asDict());
        return new TaskSpec(id, task, criteria);
    }

    /** The initial state, or null when the task has none. */
    public PyDict initialState() {
        Value v = raw.get("initial_state");
        return v == null || v.isNone() ? null : v.asDict();
    }

    /**
     * True when the task's initial state carries a message history; the orchestrator then resumes
     * mid-conversation (upstream {@code Orchestrator.initialize}), which this port does not do.
     */
    public boolean hasMessageHistory() {
        PyDict s = initialState();
        if (s == null) return false;
        Value h = s.get("message_history");
        return h != null && !h.isNone() && !h.asList().isEmpty();
    }

    /**
     * The customer's opening request, for scripted users: the structured instructions'
     * {@code reason_for_call}, or the instructions string itself.
     */
    public String requestText() {
        Value scenario = raw.get("user_scenario");
        if (scenario == null || scenario.isNone()) return "Hello.";
        Value instr = scenario.asDict().get("instructions");
        if (instr instanceof PyDict d && d.get("reason_for_call") != null)
            return d.get("reason_for_call").asStr();
        if (instr != null && !instr.isNone() && !(instr instanceof PyDict)) return instr.asStr();
        return "Hello.";
    }

    static EvaluationCriteria parseCriteria(PyDict ec) {
        List<GoldAction> actions = null;
        if (present(ec, "actions")) {
            actions = new ArrayList<>();
            for (Value a : ec.get("actions").asList()) actions.add(parseAction(a.asDict()));
        }
        List<EnvAssertion> assertions = null;
        if (present(ec, "env_assertions")) {
            assertions = new ArrayList<>();
            for (Value a : ec.get("env_assertions").asList()) {
                PyDict d = a.asDict();
                Value av = d.get("assert_value");
                assertions.add(new EnvAssertion(
                        Requestor.parse(d.get("env_type").asStr()),
                        d.get("func_name").asStr(),
                        d.get("arguments").asDict(),
                        av == null || av.isNone() || ((brokkr.value.PyBool) av).value(),
                        present(d, "message") ? d.get("message").asStr() : null));
            }
        }
        List<RewardType> basis = DEFAULT_BASIS;
        if (present(ec, "reward_basis")) {
            basis = new ArrayList<>();
            for (Value b : ec.get("reward_basis").asList()) basis.add(RewardType.parse(b.asStr()));
        }
        return new EvaluationCriteria(
                actions, assertions, strings(ec, "communicate_info"), strings(ec, "nl_assertions"), basis);
    }

    static GoldAction parseAction(PyDict a) {
        List<String> compare = present(a, "compare_args") ? strings(a, "compare_args") : null;
        Requestor r =
                present(a, "requestor") ? Requestor.parse(a.get("requestor").asStr()) : Requestor.ASSISTANT;
        return new GoldAction(
                a.get("action_id").asStr(),
                r,
                a.get("name").asStr(),
                a.get("arguments").asDict(),
                compare,
                present(a, "info") ? a.get("info").asStr() : null);
    }

    private static boolean present(PyDict d, String k) {
        Value v = d.get(k);
        return v != null && !v.isNone();
    }

    private static List<String> strings(PyDict d, String k) {
        if (!present(d, k)) return null;
        PyList l = d.get(k).asList();
        List<String> out = new ArrayList<>(l.size());
        for (Value v : l) out.add(v.asStr());
        return out;
    }
}
