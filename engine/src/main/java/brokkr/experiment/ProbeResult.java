package brokkr.experiment;

import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A decision-point probe's outcome ({@link Probes#probe}): the {@code n} sampled next actions of one
 * candidate at one cut of a recorded episode, grouped into outcome classes with counts, each labelled
 * against the record's own next action (the gold label). A diagnostic, never a certified result: it is
 * stored as a probe record ({@link ProbeStore}), never as an attempt, so no scorecard sees it.
 *
 * @param sourceAttempt the store's id of the attempt whose record was probed, 0 for a trajectory given directly
 * @param gold          the record's next action at the cut, null when the record ends there
 * @param harness       the harness that drove the candidate ({@code AgentDef.harness}: empty for the benchmark's
 *                      reference agent, one model step per sample; a loop harness answers with its whole turn)
 * @param expect        null to label samples against {@code gold}; else what a sample's reply must say
 *                      ({@link NextAction#says}: a counting decision's right count) to match
 * @param customerMessage the message at the cut the candidate answered ({@code DecisionPoint#cutMessage}: the
 *                      customer's for tau2; for a benchmark cut at tool calls, the k-th call's result)
 * @param cutUnit       what {@code at} counts ({@code Branching#cutUnit}: "customer message", "tool call")
 */
public record ProbeResult(
        String benchmark,
        String taskId,
        String environmentId,
        long sourceAttempt,
        int at,
        String customerMessage,
        String candidate,
        ModelRef model,
        long seed,
        NextAction gold,
        List<Sample> samples,
        PyDict harness,
        String expect,
        String cutUnit) {

    /** How a class relates to the gold next action. */
    public enum Label {
        MATCHES_GOLD("matches gold"),
        SAME_TOOL("same tool, other arguments"),
        DIFFERS("differs"),
        NO_GOLD("no gold");

        private final String text;

        Label(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** One sample: its index, its round (samples of one round ran side by side) and the action. */
    public record Sample(int index, int round, NextAction action) {}

    /** One outcome class: the samples with the same answer ({@link #classKey}), how many, and their relation to gold. */
    public record OutcomeClass(String key, NextAction.Kind kind, Label label, int count, NextAction example) {}

    public ProbeResult {
        samples = List.copyOf(samples);
        harness = harness == null ? PyDict.empty() : harness;
        cutUnit = cutUnit == null ? brokkr.eval.Branching.CUSTOMER_MESSAGE : cutUnit;
    }

    /** A probe of the reference harness labelled against the record's next action. */
    public ProbeResult(
            String benchmark,
            String taskId,
            String environmentId,
            long sourceAttempt,
            int at,
            String customerMessage,
            String candidate,
            ModelRef model,
            long seed,
            NextAction gold,
            List<Sample> samples) {
        this(
                benchmark,
                taskId,
                environmentId,
                sourceAttempt,
                at,
                customerMessage,
                candidate,
                model,
                seed,
                gold,
                samples,
                PyDict.empty(),
                null,
                null);
    }

    public int n() {
        return samples.size();
    }

    /**
     * A sample's class: the same tool calls with the same arguments ({@code name({...})}), a text reply,
     * a stop, or a failed model call.
     */
    public static String classKey(NextAction a) {
        return switch (a.kind()) {
            case CALL -> a.callsText();
            case TEXT -> "text reply";
            case STOP -> "stop";
            case FAILED -> "failed";
        };
    }

    /** A sample's class in this probe: {@link #classKey(NextAction)}, or with {@link #expect} whether its reply says it. */
    public String keyOf(NextAction a) {
        if (expect == null || (a.kind() != NextAction.Kind.TEXT && a.kind() != NextAction.Kind.STOP))
            return classKey(a);
        return (a.says(expect) ? "reply says '" : "reply does not say '") + expect + "'";
    }

    /** A sample's label in this probe: against {@link #gold}, or with {@link #expect} whether its reply says it. */
    public Label labelOf(NextAction a) {
        if (expect == null) return label(a, gold);
        return a.says(expect) ? Label.MATCHES_GOLD : Label.DIFFERS;
    }

    /** A sample's relation to the gold next action: same calls and arguments (or both text, or both stop), same tools, or neither. */
    public static Label label(NextAction a, NextAction gold) {
        if (gold == null) return Label.NO_GOLD;
        if (a.kind() != gold.kind() || a.kind() == NextAction.Kind.FAILED) return Label.DIFFERS;
        if (a.kind() != NextAction.Kind.CALL) return Label.MATCHES_GOLD;
        if (a.callsText().equals(gold.callsText())) return Label.MATCHES_GOLD;
        return a.toolNames().equals(gold.toolNames()) ? Label.SAME_TOOL : Label.DIFFERS;
    }

    /** The outcome classes, most frequent first (ties: the gold class first, then by key). */
    public List<OutcomeClass> classes() {
        Map<String, List<NextAction>> by = new LinkedHashMap<>();
        for (Sample s : samples)
            by.computeIfAbsent(keyOf(s.action()), k -> new ArrayList<>()).add(s.action());
        List<OutcomeClass> out = new ArrayList<>();
        by.forEach((k, l) ->
                out.add(new OutcomeClass(k, l.getFirst().kind(), labelOf(l.getFirst()), l.size(), l.getFirst())));
        out.sort(Comparator.comparingInt(OutcomeClass::count)
                .reversed()
                .thenComparing(c -> c.label() != Label.MATCHES_GOLD)
                .thenComparing(OutcomeClass::key));
        return List.copyOf(out);
    }

    /** Samples whose answer matches the gold next action. */
    public int matchesGold() {
        return (int) samples.stream()
                .filter(s -> labelOf(s.action()) == Label.MATCHES_GOLD)
                .count();
    }

    /** The share of samples matching gold (0 for no samples). */
    public double goldRate() {
        return samples.isEmpty() ? 0 : (double) matchesGold() / samples.size();
    }

    /** The gold next action's class key, or null; with {@link #expect}, the class of a reply saying it. */
    public String goldKey() {
        if (expect != null) return "reply says '" + expect + "'";
        return gold == null ? null : classKey(gold);
    }

    /** {@code "tau2-retail task 0, customer message 1: scripted/gold-50, 20 samples"} (the wiki's: {@code tool call 3}). */
    public String title() {
        return benchmark + " task " + taskId + ", " + cutUnit + " " + at + ": " + candidate + ", " + n() + " sample"
                + (n() == 1 ? "" : "s");
    }

    public PyDict toValue() {
        List<Value> ss = new ArrayList<>();
        for (Sample s : samples)
            ss.add(PyDict.of(
                    "index", s.index(), "round", s.round(), "action", s.action().toValue()));
        return PyDict.builder()
                .put("benchmark", benchmark)
                .put("task_id", taskId)
                .put("environment_id", environmentId)
                .put("source_attempt", sourceAttempt)
                .put("at", at)
                .put("customer_message", customerMessage == null ? PyNone.NONE : Value.str(customerMessage))
                .put("candidate", candidate)
                .put("model", model.toValue())
                .put("seed", seed)
                .put("gold", gold == null ? PyNone.NONE : gold.toValue())
                .put("samples", PyList.of(ss))
                .put("harness", harness)
                .put("expect", expect == null ? PyNone.NONE : Value.str(expect))
                .put("cut_unit", cutUnit)
                .build();
    }

    public static ProbeResult fromValue(Value v) {
        PyDict d = v.asDict();
        List<Sample> ss = new ArrayList<>();
        for (Value s : d.get("samples").asList()) {
            PyDict x = s.asDict();
            ss.add(new Sample(
                    (int) num(x.get("index")), (int) num(x.get("round")), NextAction.fromValue(x.get("action"))));
        }
        Value cm = d.get("customer_message");
        Value gold = d.get("gold");
        Value harness = d.get("harness"), expect = d.get("expect"), unit = d.get("cut_unit");
        return new ProbeResult(
                d.get("benchmark").asStr(),
                d.get("task_id").asStr(),
                d.get("environment_id").asStr(),
                num(d.get("source_attempt")),
                (int) num(d.get("at")),
                cm.isNone() ? null : cm.asStr(),
                d.get("candidate").asStr(),
                ModelRef.fromValue(d.get("model")),
                num(d.get("seed")),
                gold.isNone() ? null : NextAction.fromValue(gold),
                ss,
                harness == null ? PyDict.empty() : harness.asDict(),
                expect == null || expect.isNone() ? null : expect.asStr(),
                unit == null ? null : unit.asStr());
    }

    /** The outcome table as text: class, label, count and share, the gold class marked. */
    public String table() {
        StringBuilder sb = new StringBuilder(title()).append('\n');
        sb.append("gold next action: ")
                .append(gold == null ? "(none: the record ends here)" : classKey(gold))
                .append('\n');
        if (expect != null)
            sb.append("a sample matches when its reply says '").append(expect).append("'\n");
        List<OutcomeClass> cs = classes();
        int w = Math.max(
                13,
                cs.stream().mapToInt(c -> Math.min(100, c.key().length())).max().orElse(0));
        sb.append(String.format(
                Locale.ROOT, "  %-" + w + "s  %-26s  %5s  %6s%n", "outcome class", "vs gold", "count", "share"));
        for (OutcomeClass c : cs) {
            String key = c.key().length() > 100 ? c.key().substring(0, 97) + "..." : c.key();
            sb.append(String.format(
                    Locale.ROOT,
                    "%s %-" + w + "s  %-26s  %5d  %5.1f%%%n",
                    c.label() == Label.MATCHES_GOLD ? "*" : " ",
                    key,
                    c.label().text(),
                    c.count(),
                    100.0 * c.count() / Math.max(1, n())));
        }
        sb.append(String.format(Locale.ROOT, "matches gold: %d/%d (%.2f)", matchesGold(), n(), goldRate()));
        return sb.toString();
    }

    private static long num(Value v) {
        return ((PyInt) v).longValue();
    }
}
