package brokkr.domains.bfcl.multiturn;

import brokkr.domains.conformance.Corpus;
import brokkr.domains.conformance.CorpusStream;
import brokkr.python.PyJson;
import brokkr.python.PyObjects;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Grades a BFCL multi-turn verdict corpus ({@code verdicts-seed*}, ../shared/conformance/bfcl/multi_turn/README.md)
 * with {@link MultiTurnChecker}, each record from a pristine process, and compares upstream's verdict field by field:
 * {@code valid}, {@code error_type}, {@code error_message} and {@code error_details} (the rest of upstream's error,
 * rendered with the corpus's canonical rule {@link StateDump#render}; a plain object or array whose canonical text
 * exceeds 4,096 characters is descended into, any other oversize value written as {@code {"$sha", "$len"}}).
 */
public final class MultiTurnVerdicts {
    private MultiTurnVerdicts() {}

    private static final int MAX_DETAIL = 4096;

    /** Whether the corpus holds verdict records (its first record carries a candidate), not execution records. */
    public static boolean isVerdictCorpus(Path corpus) {
        for (Corpus.Line line : Corpus.lines(corpus)) {
            PyDict first = line.parse().value();
            return first.containsKey("candidate") && first.containsKey("valid");
        }
        return false;
    }

    public static MultiTurnConformance.Report run(MultiTurnData data, Path corpus, PrintStream out) {
        return run(data, corpus, out, CorpusStream.defaultThreads());
    }

    /** {@link #run} with {@code threads} workers (1: in order on the calling thread); the output is the same. */
    public static MultiTurnConformance.Report run(MultiTurnData data, Path corpus, PrintStream out, int threads) {
        return MultiTurnConformance.checkEach(data, corpus, out, threads, ExecutionRecord::whole, (task, parsed) -> {
            Corpus.Record r = parsed.record();
            PyDict v = r.value();
            // Every expected field is required (README: each verdict record has all of them): a missing one is a
            // corpus error at its line, never a comparison against a default.
            Value candidate = r.required("candidate");
            r.bool("valid");
            r.stringOrNull("error_type");
            r.required("error_message");
            r.required("error_details");
            String diff;
            try {
                MultiTurnChecker.Verdict verdict =
                        MultiTurnChecker.check(task, PyObjects.fromValue(candidate), r.string("model_name"));
                diff = compare(v, verdict);
            } catch (RuntimeException e) {
                diff = "internal error: " + e;
            }
            return new MultiTurnConformance.Checked(
                    countCalls(candidate),
                    diff,
                    corpus.getFileName() + ":" + r.line() + " " + r.string("task_id") + " " + v.get("perturbation"));
        });
    }

    private static long countCalls(Value candidate) {
        if (!(candidate instanceof PyList turns)) return 0;
        long n = 0;
        for (Value t : turns) for (Value s : t.asList()) n += s.asList().size();
        return n;
    }

    private static String compare(PyDict expected, MultiTurnChecker.Verdict v) {
        boolean valid = expected.get("valid") instanceof PyBool b && b.value();
        if (valid != v.valid()) return "valid: expected " + valid + ", got " + v.valid();
        Value type = expected.get("error_type");
        String expectedType = type instanceof PyNone || type == null ? null : type.asStr();
        if (!java.util.Objects.equals(expectedType, v.errorType()))
            return "error_type: expected " + expectedType + ", got " + v.errorType();
        if (v.valid()) return null;
        Value message = StateDump.render(v.errorMessage());
        Value expectedMessage = expected.get("error_message");
        if (!sameJson(message, expectedMessage)
                && !StateDump.canonical(message).equals(StateDump.canonical(expectedMessage))) {
            return "error_message: expected " + StateDump.canonical(expected.get("error_message")) + ", got "
                    + StateDump.canonical(message);
        }
        Value details = StateDump.render(v.world().globals().resolve(v.details()));
        Value expectedDetails = expected.getOrDefault("error_details", PyDict.empty());
        Map<Value, String> texts = new IdentityHashMap<>();
        // Equal trees have equal canonical texts: only a difference is worth the texts of both sides (for its message)
        if (matchesShortened(details, expectedDetails, texts)) return null;
        String got = shortened(details, texts).text();
        String want = StateDump.canonical(expectedDetails);
        if (!got.equals(want)) return "error_details differ at " + firstDifference(want, got);
        return null;
    }

    /** The corpus's shortened form of rendered details. */
    static Value shorten(Value v) {
        return shortened(v, new IdentityHashMap<>()).value();
    }

    /** A shortened rendering and its canonical text. */
    record Shortened(Value value, String text) {}

    /**
     * {@link #shorten} with the canonical text of what it returns. Each node's canonical text is made once, from its
     * children's ({@code texts} remembers them): the rule descends into every oversize container, and writing the
     * text of each level again cost as much as the rest of grading.
     */
    static Shortened shortened(Value v, Map<Value, String> texts) {
        String text = canonical(v, texts);
        if (text.length() <= MAX_DETAIL) return new Shortened(v, text);
        if (v instanceof PyDict d && d.keys().stream().noneMatch(k -> k.startsWith("$"))) {
            PyDict.Builder b = PyDict.builder();
            Map<String, String> childTexts = new HashMap<>();
            for (Map.Entry<String, Value> e : d.entries()) {
                Shortened c = shortened(e.getValue(), texts);
                b.put(e.getKey(), c.value());
                childTexts.put(e.getKey(), c.text());
            }
            PyDict out = b.build();
            return new Shortened(out, dictText(out, childTexts::get));
        }
        if (v instanceof PyList l) {
            List<Value> out = new ArrayList<>(l.size());
            List<String> childTexts = new ArrayList<>(l.size());
            for (Value x : l) {
                Shortened c = shortened(x, texts);
                out.add(c.value());
                childTexts.add(c.text());
            }
            return new Shortened(PyList.of(out), listText(childTexts));
        }
        PyDict digest = PyDict.builder()
                .put("$sha", new PyStr(StateDump.sha16(text)))
                .put("$len", PyInt.of(text.length()))
                .build();
        return new Shortened(digest, StateDump.canonical(digest));
    }

    /**
     * Whether {@code shorten(got)} has the canonical text of {@code expected}, decided on the trees: writing both
     * sides' texts (and dumping the corpus's side) was over a third of grading a verdict corpus. A dict without
     * {@code $} keys or a list shortens to the same container of its shortened children whatever its length (a
     * short one's children are short, so each is itself), so only a leaf or a {@code $} dict ({@code $dir},
     * {@code $tuple}, ...) needs its length, and only when the corpus holds it whole; false whenever unsure (the
     * caller then compares the texts).
     */
    static boolean matchesShortened(Value got, Value expected, Map<Value, String> texts) {
        if (got instanceof PyDict d && noDollarKey(d)) {
            if (!(expected instanceof PyDict e) || e.size() != d.size()) return false;
            for (Map.Entry<String, Value> x : d.entries()) {
                Value want = e.get(x.getKey());
                if (want == null || !matchesShortened(x.getValue(), want, texts)) return false;
            }
            return true;
        }
        if (got instanceof PyList l) {
            if (!(expected instanceof PyList e) || e.size() != l.size()) return false;
            for (int i = 0; i < l.size(); i++) if (!matchesShortened(l.get(i), e.get(i), texts)) return false;
            return true;
        }
        if (expected instanceof PyDict e
                && e.size() == 2
                && e.get("$sha") instanceof PyStr sha
                && e.get("$len") instanceof PyInt len) {
            String text = canonical(got, texts);
            if (text.length() <= MAX_DETAIL) return sameJson(got, expected);
            return len.value().equals(java.math.BigInteger.valueOf(text.length()))
                    && StateDump.sha16(text).equals(sha.value());
        }
        if (!sameJson(got, expected)) return false;
        return switch (got) {
            case PyStr s ->
                6L * s.value().length() + 2 <= MAX_DETAIL
                        || canonical(got, texts).length() <= MAX_DETAIL;
            case PyInt i ->
                i.value().bitLength() <= 13_000 || canonical(got, texts).length() <= MAX_DETAIL;
            // 13,000 bits: at most 3,914 digits; a float's repr: at most 24 characters
            case PyFloat f -> true;
            case PyBool b -> true;
            case PyNone n -> true;
            default -> canonical(got, texts).length() <= MAX_DETAIL;
        };
    }

    private static boolean noDollarKey(PyDict d) {
        for (String k : d.keys()) if (k.startsWith("$")) return false;
        return true;
    }

    /**
     * Whether two JSON trees have the same canonical text: the same kinds (a bool is not an int), numbers written
     * alike (a float by its bits: {@code repr} tells {@code -0.0} from {@code 0.0}), dicts with the same keys (sorted
     * alike), lists item by item. A NaN never matches (the canonical text refuses it).
     */
    static boolean sameJson(Value a, Value b) {
        return switch (a) {
            case null -> false;
            case PyStr s -> b instanceof PyStr t && s.value().equals(t.value());
            case PyInt i -> b instanceof PyInt j && i.value().equals(j.value());
            case PyFloat f ->
                b instanceof PyFloat g
                        && !Double.isNaN(f.value())
                        && Double.doubleToRawLongBits(f.value()) == Double.doubleToRawLongBits(g.value());
            case PyBool x -> b == x;
            case PyNone n -> b instanceof PyNone;
            case PyDict d -> {
                if (!(b instanceof PyDict e) || e.size() != d.size()) yield false;
                for (Map.Entry<String, Value> x : d.entries()) {
                    if (!sameJson(x.getValue(), e.get(x.getKey()))) yield false;
                }
                yield true;
            }
            case PyList l -> {
                if (!(b instanceof PyList m) || m.size() != l.size()) yield false;
                for (int i = 0; i < l.size(); i++) if (!sameJson(l.get(i), m.get(i))) yield false;
                yield true;
            }
        };
    }

    /** {@link StateDump#canonical}{@code (v)}, containers from their children's texts (each remembered by identity). */
    static String canonical(Value v, Map<Value, String> texts) {
        String t = texts.get(v);
        if (t != null) return t;
        if (v instanceof PyDict d && !d.isEmpty()) t = dictText(d, k -> canonical(d.get(k), texts));
        else if (v instanceof PyList l && !l.isEmpty()) {
            List<String> items = new ArrayList<>(l.size());
            for (Value x : l) items.add(canonical(x, texts));
            t = listText(items);
        } else t = StateDump.canonical(v);
        texts.put(v, t);
        return t;
    }

    /** The canonical text of a dict ({@code sort_keys}, separators {@code ","} and {@code ":"}, ASCII only). */
    private static String dictText(PyDict d, java.util.function.Function<String, String> valueText) {
        if (d.isEmpty()) return "{}";
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Value> e : PyJson.entries(d, true)) {
            if (sb.length() > 1) sb.append(',');
            try {
                PyJson.writeString(e.getKey(), true, sb);
            } catch (java.io.IOException x) {
                throw new java.io.UncheckedIOException(x);
            }
            sb.append(':').append(valueText.apply(e.getKey()));
        }
        return sb.append('}').toString();
    }

    private static String listText(List<String> items) {
        return items.isEmpty() ? "[]" : "[" + String.join(",", items) + "]";
    }

    private static String firstDifference(String want, String got) {
        int i = 0;
        while (i < want.length() && i < got.length() && want.charAt(i) == got.charAt(i)) i++;
        int from = Math.max(0, i - 80);
        return "char " + i + ": expected ..." + want.substring(from, Math.min(want.length(), i + 120)) + "\n  got ..."
                + got.substring(from, Math.min(got.length(), i + 120));
    }
}
