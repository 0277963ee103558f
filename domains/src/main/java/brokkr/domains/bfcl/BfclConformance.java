package brokkr.domains.bfcl;

import brokkr.domains.conformance.Corpus;
import brokkr.python.PyJson;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Replays a verdict corpus recorded from upstream's checker (../shared/conformance/bfcl/README.md)
 * and compares each line's {@code valid}, {@code error_type} and {@code error} list (exactly, after
 * decoding the corpus's tuple encoding), plus {@code checker_return} where the corpus has one.
 */
public final class BfclConformance {
    private BfclConformance() {}

    /** One corpus line, decoded; {@code file} and {@code lineNo} say where it came from. */
    public record Line(
            Path file,
            int lineNo,
            String taskId,
            String category,
            PyObj modelOutput,
            boolean underscoreToDot,
            boolean valid,
            String errorType,
            PyObj error,
            PyObj checkerReturn) {}

    public record Report(int checked, int mismatches, long gradeNanos) {}

    /**
     * Reads a verdict corpus. An empty or unreadable file, a line that is not a JSON object and a line
     * without a field of the README's record are {@link Corpus.CorpusException}s naming the file and line.
     */
    public static List<Line> read(Path corpus) {
        List<Line> out = new ArrayList<>();
        for (Corpus.Record d : Corpus.read(corpus)) {
            Value err = d.required("error"),
                    ret = d.has("checker_return") ? d.object("checker_return").value() : null;
            out.add(new Line(
                    d.file(),
                    d.line(),
                    d.string("task_id"),
                    d.string("category"),
                    decoded(d, "model_output", d.required("model_output")),
                    d.bool("underscore_to_dot"),
                    d.bool("valid"),
                    d.stringOrNull("error_type"),
                    err instanceof PyNone ? null : decoded(d, "error", err),
                    ret == null ? null : decoded(d, "checker_return", ret)));
        }
        return out;
    }

    /** A field in the corpus's tuple encoding (README), decoded; a value that does not decode fails at its line. */
    private static PyObj decoded(Corpus.Record d, String field, Value v) {
        try {
            return PyObj.fromJson(v);
        } catch (RuntimeException e) {
            throw d.fail("field '" + field + "' cannot be decoded: " + e.getMessage());
        }
    }

    /** Grades every line; prints the first {@code show} mismatches and the closing count line to {@code out}. */
    public static Report run(BfclData data, List<Line> lines, PrintStream out, int show) {
        Map<String, BfclTask> tasks = data.byId();
        List<BfclGrader.Verdict> verdicts = new ArrayList<>(lines.size());
        List<BfclTask> lineTasks = new ArrayList<>(lines.size());
        for (Line l : lines) {
            BfclTask t = tasks.get(l.taskId());
            if (t == null)
                throw new Corpus.CorpusException(l.file() + ":" + l.lineNo() + ": unknown task " + l.taskId());
            boolean ast = !t.category().relevance();
            // README: every valid line of an AST category records ast_checker's return; without it the
            // checker_return comparison would be skipped, not passed.
            if (l.valid() && ast && l.checkerReturn() == null)
                throw new Corpus.CorpusException(l.file() + ":" + l.lineNo()
                        + ": field 'checker_return' is missing (a valid line of an AST category records it)");
            lineTasks.add(t);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            BfclGrader.Verdict v;
            try {
                v = BfclGrader.grade(lineTasks.get(i), l.modelOutput(), l.underscoreToDot());
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
            if (mismatches <= show)
                out.println(
                        "line " + lines.get(i).lineNo() + " (" + lines.get(i).taskId() + "): " + diff);
        }
        out.println(lines.size() + " checked, " + mismatches + " mismatches");
        return new Report(lines.size(), mismatches, nanos);
    }

    /** Grades without comparing (the benchmark's inner loop). Returns the number of valid verdicts. */
    public static int gradeAll(List<BfclTask> lineTasks, List<Line> lines) {
        int valid = 0;
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            if (BfclGrader.grade(lineTasks.get(i), l.modelOutput(), l.underscoreToDot())
                    .valid()) valid++;
        }
        return valid;
    }

    /** Null when the verdict reproduces the line, else a description of the first difference. */
    static String difference(Line l, BfclGrader.Verdict v) {
        if (v == null) return "the checker raised where upstream did not";
        if (v.valid() != l.valid())
            return "valid " + v.valid() + ", upstream " + l.valid() + " (" + l.errorType() + ")";
        if (!Objects.equals(v.errorType(), l.errorType()))
            return "error_type " + v.errorType() + ", upstream " + l.errorType();
        PyObj mine = v.errors() == null ? null : PyObj.list(v.errors());
        if ((mine == null) != (l.error() == null) || (mine != null && !PyObj.same(mine, l.error())))
            return "error " + show(mine) + ", upstream " + show(l.error());
        if (l.checkerReturn() != null && v.checker() != null) {
            PyObj.Dict ret = (PyObj.Dict) l.checkerReturn();
            PyObj et = ret.get("error_type");
            String expected = et == null ? null : PyObj.strValue(et);
            if (!Objects.equals(expected, v.checker().errorType()))
                return "checker_return error_type " + v.checker().errorType() + ", upstream " + expected;
        }
        return null;
    }

    private static String show(PyObj o) {
        return o == null ? "null" : PyJson.dumps(PyObj.toJson(o), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
    }
}
