package brokkr.domains.tau2.conformance;

import brokkr.conversation.Message;
import brokkr.domains.tau2.evaluator.Checks.NlAssertionCheck;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The NL-assertion judge of a re-grade that asks no model: it answers with what upstream's judge answered.
 * With the recorded exchanges (graded corpora) it builds the request upstream's
 * {@code NLAssertionsEvaluator.evaluate_nl_assertions} sends, compares it with the recorded request byte for
 * byte (as JSON text), and parses the recorded answer as upstream does ({@link ModelNlJudge#parse}); with
 * only the recorded verdicts (results files) it returns the recorded {@code nl_assertions}. Each difference is
 * kept for the re-grade's report.
 */
final class RecordedJudge implements NlJudge {
    /** Upstream's judge model and call settings ({@code DEFAULT_LLM_NL_ASSERTIONS}, {@code src/tau2/config.py}). */
    static final String UPSTREAM_MODEL = "gpt-4.1-2025-04-14";

    static final String CALL_NAME = "nl_assertions_eval";

    private final List<PyDict> exchanges;
    private final PyDict recordedRewardInfo;
    private final List<String> differences = new ArrayList<>();
    private int asked;

    /** @param exchanges the recorded judge calls, or null to answer with {@code recordedRewardInfo.nl_assertions} */
    RecordedJudge(List<PyDict> exchanges, PyDict recordedRewardInfo) {
        this.exchanges = exchanges;
        this.recordedRewardInfo = recordedRewardInfo;
    }

    @Override
    public String name() {
        return "recorded-upstream-verdicts";
    }

    List<String> differences() {
        return List.copyOf(differences);
    }

    /** Recorded exchanges the re-grade never asked for (upstream asked its judge more often). */
    int unused() {
        return exchanges == null ? 0 : exchanges.size() - asked;
    }

    @Override
    public Verdict judge(List<Tau2Message> trajectory, List<String> nlAssertions) {
        int n = asked++;
        if (exchanges == null) return new Verdict(recordedChecks(), List.of());
        if (n >= exchanges.size()) {
            differences.add("judge: Brokkr asked the judge (call " + (n + 1) + "); upstream's run made "
                    + exchanges.size() + " judge call(s)");
            throw new JudgeFormatException("no recorded judge answer");
        }
        PyDict exchange = exchanges.get(n);
        String mine = PyJson.dumps(request(trajectory, nlAssertions));
        String theirs = PyJson.dumps(exchange.get("request"));
        if (!mine.equals(theirs)) differences.add("judge request " + (n + 1) + ": " + firstDifference(theirs, mine));
        Value answer = exchange.get("answer");
        String content = answer instanceof PyDict a ? UpstreamSimulation.str(a.get("content")) : null;
        return new Verdict(ModelNlJudge.parse(content), List.of());
    }

    /** The request as upstream's judge builds it: {@code generate(model, messages, call_name, temperature)}. */
    static PyDict request(List<Tau2Message> trajectory, List<String> nlAssertions) {
        List<Value> messages = new ArrayList<>();
        for (Message m : ModelNlJudge.request(trajectory, nlAssertions)) {
            messages.add(PyDict.of("role", m instanceof Message.System ? "system" : "user", "content", m.content()));
        }
        return PyDict.builder()
                .put("model", UPSTREAM_MODEL)
                .put("call_name", CALL_NAME)
                .put("tools", PyNone.NONE)
                .put("tool_choice", PyNone.NONE)
                .put("kwargs", PyDict.of("temperature", new PyFloat(0.0)))
                .put("messages", PyList.of(messages))
                .build();
    }

    private List<NlAssertionCheck> recordedChecks() {
        List<NlAssertionCheck> out = new ArrayList<>();
        if (recordedRewardInfo != null && recordedRewardInfo.get("nl_assertions") instanceof PyList l) {
            for (Value v : l) {
                PyDict d = v.asDict();
                out.add(new NlAssertionCheck(
                        d.get("nl_assertion").asStr(),
                        d.get("met") instanceof PyBool b && b.value(),
                        UpstreamSimulation.str(d.get("justification"))));
            }
        }
        return out;
    }

    /** Where two texts first differ, with a little context of each. */
    static String firstDifference(String expected, String actual) {
        int i = 0;
        while (i < expected.length() && i < actual.length() && expected.charAt(i) == actual.charAt(i)) i++;
        return "differs at character " + i + ": upstream " + snippet(expected, i) + ", Brokkr " + snippet(actual, i);
    }

    private static String snippet(String s, int at) {
        int from = Math.max(0, at - 20), to = Math.min(s.length(), at + 40);
        return PyJson.dumps(new PyStr((from > 0 ? "…" : "") + s.substring(from, to) + (to < s.length() ? "…" : "")));
    }
}
