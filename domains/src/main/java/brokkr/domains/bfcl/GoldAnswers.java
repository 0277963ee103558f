package brokkr.domains.bfcl;

import brokkr.domains.bfcl.PyObj.Dict;
import brokkr.domains.bfcl.PyObj.Seq;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Accepted answers built from a task's own possible answers, checked with {@link BfclGrader}. A few
 * construction policies are tried (which parameters to send, which accepted value to pick); a task
 * none of them passes under either naming convention is unsatisfiable: no answer can pass it.
 */
public final class GoldAnswers {
    private GoldAnswers() {}

    /** Which parameters to send: SMART = required by the doc or not optional in the answer; ALL = every one with a value; NO_OPTIONAL = only those not marked optional. */
    enum Include {
        SMART,
        ALL,
        NO_OPTIONAL
    }

    enum Pick {
        FIRST,
        LAST
    }

    /** The first constructed answer the checker accepts under {@code underscoreToDot}, if any. */
    public static Optional<PyObj> accepted(BfclTask task, boolean underscoreToDot) {
        for (PyObj candidate : candidates(task, underscoreToDot)) {
            if (BfclGrader.grade(task, candidate, underscoreToDot).valid()) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    /** True iff no constructed answer passes under either naming convention. */
    public static boolean unsatisfiable(BfclTask task) {
        return accepted(task, true).isEmpty() && accepted(task, false).isEmpty();
    }

    /** Ids of the unsatisfiable tasks among {@code tasks}, in order. */
    public static java.util.Set<String> unsatisfiableIds(List<BfclTask> tasks) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (BfclTask t : tasks) if (!t.category().relevance() && unsatisfiable(t)) out.add(t.id());
        return out;
    }

    /** How a picked answer value becomes what is sent for a parameter with doc {@code details}. */
    @FunctionalInterface
    interface Encoder {
        PyObj encode(PyObj value, Value details, Pick pick);
    }

    /** The answers tried, in order. */
    static List<PyObj> candidates(BfclTask task, boolean u2d) {
        if (task.category().relevance()) {
            if (!task.category().expectsCall()) return List.of(PyObj.list(List.of()));
            // live_relevance: any call in call format counts (utils.py is_empty_output).
            PyDict doc = task.functions().get(0).asDict();
            Map<String, PyObj> call = new LinkedHashMap<>();
            call.put(AstChecker.convertFuncName(doc.get("name").asStr(), u2d), new Dict(Map.of()));
            return List.of(PyObj.list(List.of(new Dict(call))));
        }
        // simple_java / simple_javascript: each value written as the Java / JavaScript source text a
        // model sends (LanguageSource); a dict answer's alternatives are picked first.
        AstChecker.Language language = task.category().language();
        Encoder encoder = language == AstChecker.Language.PYTHON
                ? GoldAnswers::shape
                : (v, details, p) ->
                        LanguageSource.encode(language, v instanceof Dict d ? dictAnswer(d, p) : v, details);
        List<PyObj> out = new ArrayList<>();
        for (Include inc : Include.values()) {
            for (Pick pick : Pick.values())
                out.add(build(task.functions(), task.possibleAnswer(), u2d, inc, pick, encoder));
        }
        return out;
    }

    private static PyObj build(
            brokkr.value.PyList functions, Seq possibleAnswer, boolean u2d, Include inc, Pick pick, Encoder encoder) {
        List<PyObj> calls = new ArrayList<>();
        for (PyObj expected : possibleAnswer.items()) {
            Map.Entry<String, PyObj> e =
                    ((Dict) expected).entries().entrySet().iterator().next();
            PyDict doc = docOf(functions, e.getKey());
            PyDict params = doc == null ? PyDict.empty() : doc.get("parameters").asDict();
            PyDict properties =
                    params.getOrDefault("properties", PyDict.empty()).asDict();
            List<String> required = new ArrayList<>();
            Value req = params.get("required");
            if (req != null) for (Value r : req.asList()) required.add(r.asStr());

            Map<String, PyObj> args = new LinkedHashMap<>();
            for (Map.Entry<String, PyObj> p : ((Dict) e.getValue()).entries().entrySet()) {
                String name = p.getKey();
                Seq values = (Seq) p.getValue();
                boolean optional = contains(values, PyObj.EMPTY_STR);
                boolean isRequired = required.contains(name);
                boolean send = switch (inc) {
                    case SMART -> isRequired || !optional;
                    case ALL -> true;
                    case NO_OPTIONAL -> !optional;
                };
                if (!send) continue;
                PyObj v = pickValue(values, pick);
                if (v == null) {
                    // Only "" is accepted: an explicit "" passes string_checker; otherwise leave it out.
                    if (isRequired || inc == Include.ALL) args.put(name, PyObj.EMPTY_STR);
                    continue;
                }
                args.put(name, encoder.encode(v, properties.get(name), pick));
            }
            Map<String, PyObj> call = new LinkedHashMap<>();
            call.put(AstChecker.convertFuncName(e.getKey(), u2d), new Dict(args));
            calls.add(new Dict(call));
        }
        return PyObj.list(calls);
    }

    /** A dict answer is {key: [accepted values]} (dict_checker); a list of such dicts is checked element-wise. */
    private static PyObj shape(PyObj v, Value details, Pick pick) {
        String type = details instanceof PyDict d && d.get("type") instanceof PyStr s ? s.value() : "";
        if (type.equals("dict") && v instanceof Dict d) return dictAnswer(d, pick);
        if (type.equals("array")
                && v instanceof Seq s
                && !s.items().isEmpty()
                && s.items().stream().allMatch(x -> x instanceof Dict)) {
            List<PyObj> items = new ArrayList<>();
            for (PyObj x : s.items()) items.add(dictAnswer((Dict) x, pick));
            return PyObj.list(items);
        }
        return v;
    }

    private static PyObj dictAnswer(Dict answer, Pick pick) {
        Map<String, PyObj> out = new LinkedHashMap<>();
        for (Map.Entry<String, PyObj> e : answer.entries().entrySet()) {
            if (!(e.getValue() instanceof Seq accepted)) continue;
            PyObj v = pickValue(accepted, pick);
            if (v != null) out.put(e.getKey(), v);
        }
        return new Dict(out);
    }

    private static PyObj pickValue(Seq values, Pick pick) {
        List<PyObj> nonEmpty = values.items().stream()
                .filter(x -> !PyObj.eq(x, PyObj.EMPTY_STR))
                .toList();
        if (nonEmpty.isEmpty()) return null;
        return pick == Pick.FIRST ? nonEmpty.getFirst() : nonEmpty.getLast();
    }

    private static boolean contains(Seq s, PyObj x) {
        for (PyObj y : s.items()) if (PyObj.eq(x, y)) return true;
        return false;
    }

    private static PyDict docOf(brokkr.value.PyList functions, String name) {
        for (Value f : functions) if (f.asDict().get("name").asStr().equals(name)) return f.asDict();
        return null;
    }
}
