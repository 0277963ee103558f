package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.python.PyObjects;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Upstream's verdicts in verdicts-seed7.jsonl.gz (validity, error type and message) reproduced for every
 * candidate whose task's classes are all available (long-context tasks when long_context.py is present).
 * The ground truth of every such task passes, as upstream's own checker passes it.
 */
class MultiTurnCheckerTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    @Test
    void verdictsSeed7() throws IOException {
        MultiTurnData data = MultiTurnData.load();
        boolean longContext = longContextAvailable();
        int graded = 0, valid = 0;
        List<String> diffs = new ArrayList<>();
        Path f = shared("verdicts-seed7.jsonl.gz");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(f)), StandardCharsets.UTF_8))) {
            int lineNo = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNo++;
                PyDict r = Json.parse(line).asDict();
                MultiTurnData.Task task = data.task(r.get("task_id").asStr());
                if (!task.involvedClasses().stream().allMatch(c -> Backends.find(c).isPresent())) continue;
                if (!longContext && task.setup().longContext()) continue;
                MultiTurnChecker.Verdict v = MultiTurnChecker.check(task, PyObjects.fromValue(r.get("candidate")), MODEL);
                graded++;
                if (v.valid()) valid++;
                String expected = ((brokkr.value.PyBool) r.get("valid")).value() + " "
                        + (r.get("error_type") instanceof PyNone ? "null" : "\"" + r.get("error_type").asStr() + "\"") + " "
                        + (r.get("error_message") instanceof PyNone ? "None" : PyObjects.repr(PyObjects.fromValue(r.get("error_message"))));
                String actual = v.valid() + " " + (v.errorType() == null ? "null" : "\"" + v.errorType() + "\"") + " "
                        + (v.errorMessage() == null ? "None" : PyObjects.repr(v.errorMessage()));
                if (!expected.equals(actual)) diffs.add("line " + lineNo + " " + task.id() + " " + r.get("perturbation") + ":\n  expected " + expected + "\n  actual   " + actual);
            }
        }
        System.out.println("[bfcl-multi-turn] verdicts-seed7: " + graded + " graded (" + valid + " valid), " + diffs.size() + " mismatches");
        assertTrue(diffs.isEmpty(), diffs.size() + " verdicts differ:\n" + String.join("\n", diffs.subList(0, Math.min(10, diffs.size()))));
        assertTrue(graded >= 1000, "graded " + graded);
    }

    @Test
    void groundTruthPasses() {
        MultiTurnData data = MultiTurnData.load();
        boolean longContext = longContextAvailable();
        int n = 0;
        for (MultiTurnData.Task task : data.all()) {
            if (!task.involvedClasses().stream().allMatch(c -> Backends.find(c).isPresent())) continue;
            if (!longContext && task.setup().longContext()) continue;
            List<Object> candidate = new ArrayList<>();
            for (List<String> turn : task.groundTruth()) candidate.add(turn.isEmpty() ? PyObjects.list() : PyObjects.list(PyObjects.listOf(turn)));
            MultiTurnChecker.Verdict v = MultiTurnChecker.check(task, PyObjects.listOf(candidate), MODEL);
            assertTrue(v.valid(), task.id() + ": " + v.errorType() + " " + v.errorMessage());
            n++;
        }
        assertTrue(n >= 400, "checked " + n);
    }

    private static boolean longContextAvailable() {
        try {
            return Files.isRegularFile(LongContextData.locate());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static Path shared(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/multi_turn").resolve(file);
            if (Files.isRegularFile(s)) return s;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/multi_turn/" + file);
    }
}
