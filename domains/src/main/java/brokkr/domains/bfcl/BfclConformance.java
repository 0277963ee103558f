package brokkr.domains.bfcl;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Replays a verdict corpus recorded from upstream's checker (../shared/conformance/bfcl/README.md)
 * and compares each line's {@code valid}, {@code error_type} and {@code error} list (exactly, after
 * decoding the corpus's tuple encoding), plus {@code checker_return} where the corpus has one.
 */
public final class BfclConformance {
    private BfclConformance() {}

    /** One corpus line, decoded. */
    public record Line(int lineNo, String taskId, String category, PyObj modelOutput, boolean underscoreToDot,
                       boolean valid, String errorType, PyObj error, PyObj checkerReturn) {}

    public record Report(int checked, int mismatches, long gradeNanos) {}

    /** Reads a verdict corpus. */
    public static List<Line> read(Path corpus) {
        List<Line> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
            String s;
            int n = 0;
            while ((s = r.readLine()) != null) {
                n++;
                if (s.isBlank()) continue;
                PyDict d = Json.parse(s).asDict();
                Value err = d.get("error"), ret = d.get("checker_return"), et = d.get("error_type");
                out.add(new Line(n, d.get("task_id").asStr(), d.get("category").asStr(), PyObj.fromJson(d.get("model_output")),
                        ((PyBool) d.get("underscore_to_dot")).value(), ((PyBool) d.get("valid")).value(),
                        et instanceof PyStr e ? e.value() : null,
                        err == null || err instanceof PyNone ? null : PyObj.fromJson(err),
                        ret == null ? null : PyObj.fromJson(ret)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(corpus.toString(), e);
        }
        return out;
    }

    /** Grades every line; prints the first {@code show} mismatches and the closing count line to {@code out}. */
    public static Report run(BfclData data, List<Line> lines, PrintStream out, int show) {
        Map<String, BfclTask> tasks = data.byId();
        List<Grader.Verdict> verdicts = new ArrayList<>(lines.size());
        List<BfclTask> lineTasks = new ArrayList<>(lines.size());
        for (Line l : lines) {
            BfclTask t = tasks.get(l.taskId());
            if (t == null) throw new IllegalArgumentException("line " + l.lineNo() + ": unknown task " + l.taskId());
            lineTasks.add(t);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            Grader.Verdict v;
            try {
                v = Grader.grade(lineTasks.get(i), l.modelOutput(), l.underscoreToDot());
            } catch (RuntimeException e) {
                v = null;
            }
            verdicts.add(v);
        }
        long nanos = System.nanoTime() - t0;
        int mismatches = 0;
        for (int i = 0; i < lines.size(); i++) {
            String diff = difference(lines.get(i), verdicts.get(i));
            if (diff == null) continue;
            mismatches++;
            if (mismatches <= show) out.println("line " + lines.get(i).lineNo() + " (" + lines.get(i).taskId() + "): " + diff);
        }
        out.println(lines.size() + " checked, " + mismatches + " mismatches");
        return new Report(lines.size(), mismatches, nanos);
    }

    /** Grades without comparing (the benchmark's inner loop). Returns the number of valid verdicts. */
    public static int gradeAll(List<BfclTask> lineTasks, List<Line> lines) {
        int valid = 0;
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            if (Grader.grade(lineTasks.get(i), l.modelOutput(), l.underscoreToDot()).valid()) valid++;
        }
        return valid;
    }

    /** Null when the verdict reproduces the line, else a description of the first difference. */
    static String difference(Line l, Grader.Verdict v) {
        if (v == null) return "the checker raised where upstream did not";
        if (v.valid() != l.valid()) return "valid " + v.valid() + ", upstream " + l.valid() + " (" + l.errorType() + ")";
        if (!java.util.Objects.equals(v.errorType(), l.errorType()))
            return "error_type " + v.errorType() + ", upstream " + l.errorType();
        PyObj mine = v.errors() == null ? null : PyObj.list(v.errors());
        if ((mine == null) != (l.error() == null) || (mine != null && !PyObj.same(mine, l.error())))
            return "error " + show(mine) + ", upstream " + show(l.error());
        if (l.checkerReturn() != null && v.checker() != null) {
            PyObj.Dict ret = (PyObj.Dict) l.checkerReturn();
            PyObj et = ret.get("error_type");
            String expected = et == null ? null : PyObj.strValue(et);
            if (!java.util.Objects.equals(expected, v.checker().errorType()))
                return "checker_return error_type " + v.checker().errorType() + ", upstream " + expected;
        }
        return null;
    }

    private static String show(PyObj o) {
        return o == null ? "null" : PyJson.dumps(PyObj.toJson(o), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
    }

}
