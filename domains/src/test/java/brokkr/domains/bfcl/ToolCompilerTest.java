package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compiled tool specs of every task equal upstream's (tools.jsonl), as values and as JSON text. */
class ToolCompilerTest {
    @Test
    void everyTaskIdentical() throws IOException {
        List<String> lines = Files.readAllLines(Shared.conformance("tools.jsonl"));
        // simple_java / simple_javascript: java-js/tools.jsonl.gz, below.
        List<BfclTask> tasks = Shared.data().all().stream()
                .filter(t -> t.category().language() == AstChecker.Language.PYTHON)
                .toList();
        assertEquals(3491, lines.size());
        assertEquals(3491, tasks.size());
        int identical = 0;
        List<String> diffs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            BfclTask t = tasks.get(i);
            String mine = PyJson.dumps(record(t), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
            boolean sameValue = Json.parse(lines.get(i)).equals(Json.parse(mine));
            if (sameValue && mine.equals(lines.get(i))) identical++;
            else if (diffs.size() < 3) diffs.add(t.id() + " value-equal=" + sameValue);
        }
        assertEquals(3491, identical, diffs.toString());
    }

    /** simple_java / simple_javascript: the 150 records of java-js/tools.jsonl.gz, as values and as JSON text. */
    @Test
    void javaJsTasksIdentical() throws IOException {
        List<String> lines;
        try (var in =
                new java.util.zip.GZIPInputStream(Files.newInputStream(Shared.conformance("java-js/tools.jsonl.gz")))) {
            lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .lines()
                    .toList();
        }
        List<BfclTask> tasks = new ArrayList<>(Shared.data().tasks(BfclCategory.SIMPLE_JAVA));
        tasks.addAll(Shared.data().tasks(BfclCategory.SIMPLE_JAVASCRIPT));
        assertEquals(150, lines.size());
        assertEquals(150, tasks.size());
        int identical = 0;
        List<String> diffs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            BfclTask t = tasks.get(i);
            String mine = BfclToolSpecs.text(t);
            boolean sameValue = Json.parse(lines.get(i)).equals(Json.parse(mine));
            if (sameValue && mine.equals(lines.get(i))) identical++;
            else if (diffs.size() < 3)
                diffs.add(t.id() + " value-equal=" + sameValue + "\n" + mine + "\n" + lines.get(i));
        }
        assertEquals(150, identical, diffs.toString());
    }

    @Test
    void floatParameterGetsFormatAndSuffix() {
        PyList fs = (PyList) Json.parse("""
                [{"name": "a.b", "description": "d", "parameters": {"type": "dict", "properties":
                  {"x": {"type": "float", "description": "X."}, "y": {"description": "Y."}},
                  "required": ["x"]}, "response": {"k": "v"}}]""");
        PyDict anthropic = ToolCompiler.compile(ToolCompiler.modelFunctions(fs), ToolCompiler.Style.ANTHROPIC)
                .get(0)
                .asDict();
        assertEquals(
                "{\"name\": \"a_b\", \"description\": \"d Note that the provided function is in Python 3 syntax."
                        + " The response field has the following schema: {\\\"k\\\": \\\"v\\\"}\", \"input_schema\": {\"type\": \"object\","
                        + " \"properties\": {\"x\": {\"type\": \"number\", \"description\": \"X. This is a float type value.\", \"format\": \"float\"},"
                        + " \"y\": {\"description\": \"Y.\", \"type\": \"string\"}}, \"required\": [\"x\"]}}",
                PyJson.dumps(anthropic));
    }

    static Value record(BfclTask t) {
        return BfclToolSpecs.record(t);
    }
}
