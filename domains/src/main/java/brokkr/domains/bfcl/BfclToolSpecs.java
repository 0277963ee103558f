package brokkr.domains.bfcl;

import brokkr.domains.conformance.Corpus;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The single-turn tool specs against a corpus's {@code tools.jsonl} / {@code tools.jsonl.gz}
 * (../shared/conformance/bfcl/README.md, java-js/README.md): per task the checker's function docs, the model's view
 * of them ({@link ToolCompiler#modelFunctions(PyList, AstChecker.Language)}) and the three compiled styles, as upstream's
 * {@code gen_tools.py} wrote them. Equal means the same JSON text ({@code json.dumps(..., ensure_ascii=False)}), not
 * only the same value.
 */
public final class BfclToolSpecs {
    private BfclToolSpecs() {}

    /** The corpus's record of a task, as Brokkr compiles it. */
    public static PyDict record(BfclTask t) {
        PyList model = ToolCompiler.modelFunctions(t.functions(), t.category().language());
        List<Value> names = new ArrayList<>();
        for (Value f : t.functions()) names.add(f.asDict().get("name"));
        return PyDict.builder()
                .put("id", new PyStr(t.id()))
                .put("category", new PyStr(t.category().id()))
                .put("function_names", PyList.of(names))
                .put("checker_functions", t.functions())
                .put("model_functions", model)
                .put("openai_completions", ToolCompiler.compile(model, ToolCompiler.Style.OPENAI_COMPLETIONS))
                .put("openai_responses", ToolCompiler.compile(model, ToolCompiler.Style.OPENAI_RESPONSES))
                .put("anthropic", ToolCompiler.compile(model, ToolCompiler.Style.ANTHROPIC))
                .build();
    }

    public static String text(BfclTask t) {
        return PyJson.dumps(record(t), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
    }

    /** The tools file beside a verdict corpus ({@code tools.jsonl.gz}, else {@code tools.jsonl}), or null. */
    public static Path besides(Path corpus) {
        Path dir = corpus.toAbsolutePath().getParent();
        if (dir == null) return null;
        for (String n : List.of("tools.jsonl.gz", "tools.jsonl")) {
            Path p = dir.resolve(n);
            if (Files.isRegularFile(p)) return p;
        }
        return null;
    }

    public record Report(int checked, int mismatches) {}

    /**
     * Compares every record of {@code tools} with the task it names; prints the first {@code show} differences and a
     * line "N tool specs checked against FILE, K mismatches". A record of an unknown task is a mismatch.
     */
    public static Report check(BfclData data, Path tools, PrintStream out, int show) {
        Map<String, BfclTask> tasks = data.byId();
        int checked = 0, mismatches = 0;
        for (Corpus.Line l : Corpus.lines(tools)) {
            checked++;
            String id;
            try {
                id = Json.parse(l.text()).asDict().get("id").asStr();
            } catch (RuntimeException e) {
                throw new Corpus.CorpusException(tools + ":" + l.number() + ": not a tools record");
            }
            BfclTask t = tasks.get(id);
            String diff;
            if (t == null) diff = "unknown task " + id;
            else {
                String mine = text(t);
                if (mine.equals(l.text())) continue;
                diff = Json.parse(mine).equals(Json.parse(l.text()))
                        ? "the same value written differently"
                        : "a different spec: " + firstDifference(mine, l.text());
            }
            mismatches++;
            if (mismatches <= show) out.println(tools.getFileName() + " line " + l.number() + " (" + id + "): " + diff);
        }
        out.println(checked + " tool specs checked against " + tools.getFileName() + ", " + mismatches + " mismatches");
        return new Report(checked, mismatches);
    }

    private static String firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) i++;
        int from = Math.max(0, i - 40);
        return "Brokkr …" + a.substring(from, Math.min(a.length(), i + 40)) + "… upstream …"
                + b.substring(from, Math.min(b.length(), i + 40)) + "…";
    }
}
