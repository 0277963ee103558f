package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.python.PyObjects;
import brokkr.value.Json;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream's verdicts in verdicts-seed7.jsonl.gz (every field) reproduced for every
 * candidate whose task's classes are all available.
 * The ground truth of every such task passes, as upstream's own checker passes it.
 */
class MultiTurnCheckerTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    @TempDir
    Path tmp;

    /** Every field of upstream's verdicts, error_details included (MultiTurnVerdicts, as the conformance command grades). */
    @Test
    void verdictsSeed7() throws IOException {
        MultiTurnData data = MultiTurnData.load();
        Path filtered = tmp.resolve("verdicts.jsonl");
        int kept = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                        new GZIPInputStream(Files.newInputStream(shared("verdicts-seed7.jsonl.gz"))),
                        StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(filtered)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                MultiTurnData.Task task =
                        data.task(Json.parse(line).asDict().get("task_id").asStr());
                if (!task.involvedClasses().stream()
                        .allMatch(c -> Backends.find(c).isPresent())) continue;
                out.write(line);
                out.write('\n');
                kept++;
            }
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        MultiTurnConformance.Report r =
                MultiTurnVerdicts.run(data, filtered, new PrintStream(buf, true, StandardCharsets.UTF_8));
        System.out.println("[bfcl-multi-turn] verdicts-seed7: " + r.summary());
        assertEquals(kept, r.records(), buf.toString(StandardCharsets.UTF_8));
        assertEquals(0, r.mismatches(), buf.toString(StandardCharsets.UTF_8));
        assertEquals(7960, kept, "every record of the corpus graded");
        assertEquals(0, r.skipped(), buf.toString(StandardCharsets.UTF_8));
    }

    @Test
    void groundTruthPasses() {
        MultiTurnData data = MultiTurnData.load();
        int n = 0;
        for (MultiTurnData.Task task : data.all()) {
            if (!task.involvedClasses().stream().allMatch(c -> Backends.find(c).isPresent())) continue;
            List<Object> candidate = new ArrayList<>();
            for (List<String> turn : task.groundTruth())
                candidate.add(turn.isEmpty() ? PyObjects.list() : PyObjects.list(PyObjects.listOf(turn)));
            MultiTurnChecker.Verdict v = MultiTurnChecker.check(task, PyObjects.listOf(candidate), MODEL);
            assertTrue(v.valid(), task.id() + ": " + v.errorType() + " " + v.errorMessage());
            n++;
        }
        assertEquals(800, n, "every task checked");
    }

    private static Path shared(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/multi_turn").resolve(file);
            if (Files.isRegularFile(s)) return s;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/multi_turn/" + file);
    }
}
