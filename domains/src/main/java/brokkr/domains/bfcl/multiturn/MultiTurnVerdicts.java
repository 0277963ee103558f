package brokkr.domains.bfcl.multiturn;

import brokkr.domains.conformance.Corpus;
import brokkr.python.PyObjects;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
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
        return MultiTurnConformance.checkEach(data, corpus, out, (task, r) -> {
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
        if (!StateDump.canonical(message).equals(StateDump.canonical(expected.get("error_message")))) {
            return "error_message: expected " + StateDump.canonical(expected.get("error_message")) + ", got "
                    + StateDump.canonical(message);
        }
        Value details = shorten(StateDump.render(v.world().globals().resolve(v.details())));
        Value expectedDetails = expected.getOrDefault("error_details", PyDict.empty());
        String got = StateDump.canonical(details), want = StateDump.canonical(expectedDetails);
        if (!got.equals(want)) return "error_details differ at " + firstDifference(want, got);
        return null;
    }

    /** The corpus's shortened form of rendered details. */
    static Value shorten(Value v) {
        String text = StateDump.canonical(v);
        if (text.length() <= MAX_DETAIL) return v;
        if (v instanceof PyDict d && d.keys().stream().noneMatch(k -> k.startsWith("$"))) {
            PyDict.Builder b = PyDict.builder();
            for (Map.Entry<String, Value> e : d.entries()) b.put(e.getKey(), shorten(e.getValue()));
            return b.build();
        }
        if (v instanceof PyList l) {
            List<Value> out = new ArrayList<>(l.size());
            for (Value x : l) out.add(shorten(x));
            return PyList.of(out);
        }
        return PyDict.builder()
                .put("$sha", new PyStr(StateDump.sha16(text)))
                .put("$len", PyInt.of(text.length()))
                .build();
    }

    private static String firstDifference(String want, String got) {
        int i = 0;
        while (i < want.length() && i < got.length() && want.charAt(i) == got.charAt(i)) i++;
        int from = Math.max(0, i - 80);
        return "char " + i + ": expected ..." + want.substring(from, Math.min(want.length(), i + 120)) + "\n  got ..."
                + got.substring(from, Math.min(got.length(), i + 120));
    }
}
