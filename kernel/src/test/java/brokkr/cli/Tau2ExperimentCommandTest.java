package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentStore;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example tau2 experiment from the command line: run, resume, show, verify-world (and a tampered record). */
class Tau2ExperimentCommandTest {
    @TempDir
    Path tmp;

    static ExperimentCommandTest.Out cli(String... args) {
        return ExperimentCommandTest.cli(args);
    }

    static Path example() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("examples/retail-gold-vs-stop.yaml");
            if (Files.isRegularFile(f)) return f;
        }
        throw new IllegalStateException("examples/retail-gold-vs-stop.yaml not found above the working directory");
    }

    @Test
    void theRetailGoldVersusStopExampleRunsShowsAndVerifies() throws Exception {
        String file = example().toString();
        String dir = tmp.resolve("retail").toString();
        var run = cli("experiment", "run", file, "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(
                run.err().contains("320 cells: 0 already done, 320 run (320 completed, 0 infrastructure failures)"),
                run.err());
        var again = cli("experiment", "run", file, "--dir", dir, "--no-progress");
        assertTrue(again.err().contains("320 cells: 320 already done, 0 run"), again.err());

        var show = cli("experiment", "show", dir, "--summary", "--checks", "--tasks");
        assertEquals(0, show.code());
        String s = show.out();
        assertTrue(
                s.matches(
                        "(?s).*tau2-retail\\s+gold\\s+40\\s+4\\s+160\\s+0\\s+1\\.00\\s+0\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s.*"),
                s);
        assertTrue(
                s.matches(
                        "(?s).*tau2-retail\\s+stop-at-once\\s+40\\s+4\\s+160\\s+0\\s+0\\.0500\\s+0\\.0349\\s+0\\s+0\\.121\\s+0\\.0500\\s+0\\.0500\\s+0\\.0500\\s+0\\.0500\\s.*"),
                s);
        assertTrue(s.matches("(?s).*stop-at-once\\s+db\\s+160\\s+144\\s.*"), s);
        assertTrue(s.matches("(?s).*stop-at-once\\s+12\\s+4\\s+4\\s+1\\.00\\s.*"), s);
        assertTrue(s.matches("(?s).*stop-at-once\\s+65\\s+4\\s+4\\s+1\\.00\\s.*"), s);
        assertTrue(s.matches("(?s).*stop-at-once\\s+5\\s+4\\s+0\\s+0\\s.*"), s);

        var verified = cli("experiment", "verify-world", dir);
        assertEquals(0, verified.code(), verified.err());
        assertTrue(verified.out().contains("320 attempts verified, 0 mismatches"), verified.out());

        // Forge one record that changed the world: drop its tool calls from the transcript.
        long id;
        try (ExperimentQuery store = ExperimentQuery.open(Path.of(dir))) {
            var a = store.attempts(true).stream()
                    .filter(x -> !x.evidence()
                            .finalWorldSha256()
                            .equals(x.evidence().setup().get("initial_db_hash").asStr()))
                    .findFirst()
                    .orElseThrow();
            id = a.id();
            Evidence e = a.evidence();
            List<Value> kept = e.transcript().asList().stream()
                    .filter(m -> {
                        PyDict d = m.asDict();
                        return !d.get("role").asStr().equals("tool")
                                && !(d.get("tool_calls") instanceof PyList l && !l.isEmpty());
                    })
                    .toList();
            Evidence forged = new Evidence(
                    e.setup(),
                    PyList.of(kept),
                    e.output(),
                    e.termination(),
                    e.finalWorldSha256(),
                    e.modelCalls(),
                    e.usage(),
                    e.timings(),
                    e.details());
            try (var c = DriverManager.getConnection("jdbc:sqlite:" + ExperimentStore.file(Path.of(dir)));
                    var ps = c.prepareStatement("UPDATE attempt SET evidence_json = ? WHERE id = ?")) {
                ps.setString(1, PyJson.dumps(forged.toValue()));
                ps.setLong(2, id);
                assertEquals(1, ps.executeUpdate());
            }
        }
        var one = cli("experiment", "verify-world", dir, String.valueOf(id));
        assertEquals(1, one.code(), one.out());
        assertTrue(one.out().contains("MISMATCH: the record does not reproduce its world"), one.out());
        var all = cli("experiment", "verify-world", dir);
        assertEquals(1, all.code());
        assertTrue(all.out().contains("319 attempts verified, 1 mismatches"), all.out());
        assertTrue(all.out().contains("MISMATCH attempt " + id + ":"), all.out());
    }
}
