package brokkr.bench;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.data.DataDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyJson;
import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench replay's report: its shape, the exact byte count of a tiny corpus, and the upstream table (never timings). */
class ReplayBenchTest {
    /** A one-table world of a few bytes: every world hash digests the world's whole text once (then its hex memo). */
    private static final String WORLD = "{\"notes\": {\"a\": \"x\"}, \"n\": 1}";

    private static final Tau2Toolkit NOTES = Tau2Toolkit.builder("NoteTools", List.of())
            .extraTools(List.of(
                    new ToolDef(
                            "get_note",
                            "NoteTools.get_note",
                            List.of(Param.required("key")),
                            (c, a) -> c.get()
                                    .asDict()
                                    .get("notes")
                                    .asDict()
                                    .getOrDefault(a.get("key").asStr(), PyNone.NONE),
                            false),
                    new ToolDef(
                            "set_note",
                            "NoteTools.set_note",
                            List.of(Param.required("key"), Param.required("text")),
                            (c, a) -> {
                                PyDict db = c.get().asDict();
                                c.set(db.with(
                                        "notes",
                                        db.get("notes")
                                                .asDict()
                                                .with(a.get("key").asStr(), a.get("text"))));
                                return new PyStr("ok");
                            },
                            true)))
            .build();

    /** A fresh world per environment (parsed anew: no memo carried from one record to the next). */
    private static final Tau2Conformance.EnvironmentFactory FACTORY =
            task -> Tau2Environment.agentOnly(NOTES, Json.parse(WORLD));

    private static int sortedLength(Value world) {
        return PyJson.dumps(world, PyJson.DumpOptions.SORTED).length();
    }

    /** Writes a fuzz-format corpus of {@code records} sequences (a read, then {@code writes} writes), recorded from this port, and returns the bytes one replay must digest. */
    private static long corpus(Path file, int records, int writes) throws IOException {
        List<String> lines = new ArrayList<>();
        long bytes = 0;
        for (int seq = 0; seq < records; seq++) {
            Tau2Environment env = FACTORY.create(null);
            bytes += sortedLength(env.db());
            PyDict.Builder rec = PyDict.builder()
                    .put("seq", seq)
                    .put("seed", 1)
                    .put("domain", "notes")
                    .put("kind", "wellformed")
                    .put("init_task_id", PyNone.NONE)
                    .put("initial_db_hash", env.dbHash())
                    .put("initial_user_db_hash", PyNone.NONE);
            List<Value> calls = new ArrayList<>();
            Tau2Environment.ToolMessage read = env.getResponse("get_note", PyDict.of("key", "a"), "assistant");
            calls.add(PyDict.of(
                    "requestor",
                    "assistant",
                    "name",
                    "get_note",
                    "arguments",
                    PyDict.of("key", "a"),
                    "content",
                    read.content(),
                    "error",
                    read.error(),
                    "db_hash",
                    PyNone.NONE,
                    "user_db_hash",
                    PyNone.NONE));
            for (int w = 0; w < writes; w++) {
                PyDict args = PyDict.of("key", "k" + w, "text", "note " + seq + "." + w);
                Tau2Environment.ToolMessage m = env.getResponse("set_note", args, "assistant");
                bytes += sortedLength(env.db()); // a new world after each write: its whole text
                calls.add(PyDict.of(
                        "requestor",
                        "assistant",
                        "name",
                        "set_note",
                        "arguments",
                        args,
                        "content",
                        m.content(),
                        "error",
                        m.error(),
                        "db_hash",
                        env.dbHash(),
                        "user_db_hash",
                        PyNone.NONE));
            }
            rec.put("calls", PyList.of(calls))
                    .put("final_db_hash", env.dbHash())
                    .put("final_user_db_hash", PyNone.NONE); // hashed already: its hex memo
            lines.add(PyJson.dumps(rec.build()));
        }
        Files.write(file, lines);
        return bytes;
    }

    @Test
    void theByteCountOfATinyCorpusIsExactAndTheReportHasARowPerRunAndThreadCount(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("notes.jsonl");
        long expected = corpus(file, 3, 2);
        ReplayBench.Report r = ReplayBench.measure(FACTORY, "notes", file, 2, List.of(1, 2), null);
        assertEquals(3, r.sequences());
        assertEquals(9, r.calls());
        assertEquals(4, r.runs().size());
        for (ReplayBench.Run run : r.runs()) {
            assertEquals(expected, run.digestedBytes(), "run " + run.index() + " with " + run.threads() + " thread(s)");
            assertEquals(
                    expected, run.hashedTextBytes(), "run " + run.index() + " with " + run.threads() + " thread(s)");
            assertTrue(run.wallNanos() > 0 && run.floorNanos() > 0);
        }
        assertEquals(
                List.of(1, 2),
                r.summaries().stream().map(ReplayBench.Summary::threads).toList());
        assertTrue(r.upstream().isEmpty(), "upstream recorded no replay of this corpus");
        String text = ReplayBench.summary(r);
        List<String> lines = text.lines().toList();
        assertEquals(
                "notes notes.jsonl: 3 sequences, 9 calls, 0 mismatches; best of 2 run(s) per thread count",
                lines.get(0));
        assertEquals(
                List.of(
                        "threads",
                        "wall",
                        "ms",
                        "µs/call",
                        "digested",
                        "MB",
                        "floor",
                        "ms",
                        "x",
                        "floor",
                        "text",
                        "MB",
                        "full",
                        "floor",
                        "ms",
                        "x",
                        "full",
                        "upstream",
                        "s",
                        "x",
                        "faster"),
                List.of(lines.get(1).trim().split("\\s+")));
        for (int t = 1; t <= 2; t++) {
            String[] row = lines.get(1 + t).trim().split("\\s+");
            assertEquals(11, row.length, lines.get(1 + t));
            assertEquals(String.valueOf(t), row[0]);
            assertEquals(String.format(java.util.Locale.ROOT, "%.1f", expected / 1e6), row[3]);
            // A world this small is one memo, digested whole: its text is what was digested.
            assertEquals(row[3], row[6], "text MB");
            assertEquals("-", row[9]);
        }
        assertTrue(text.contains("upstream: no recorded replay of this corpus"), text);
    }

    @Test
    void aReplayThatDiffersFromItsCorpusIsNotTimed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("notes.jsonl");
        corpus(file, 1, 1);
        Files.writeString(file, Files.readString(file).replace("\"ok\"", "\"not ok\""));
        assertThrows(
                ReplayBench.Mismatch.class, () -> ReplayBench.measure(FACTORY, "notes", file, 1, List.of(1), null));
    }

    /** The table in code is the README's, row by row, and applies only to the corpus it was recorded for. */
    @Test
    void upstreamTimesAreTheConformanceReadmesAndMatchTheirCorpusOnly() throws IOException {
        Path readme = DataDirs.findUpwards("conformance/tau2", "README.md")
                .orElseThrow()
                .resolve("README.md");
        List<String> rows = new ArrayList<>();
        boolean inTimings = false;
        for (String line : Files.readAllLines(readme)) {
            if (line.startsWith("## ")) inTimings = line.startsWith("## Upstream timings");
            if (inTimings && line.startsWith("| ") && line.contains("shared/conformance/tau2/")) rows.add(line);
        }
        for (ReplayBench.UpstreamTime u : ReplayBench.UPSTREAM) {
            String row = rows.stream()
                    .filter(l -> l.contains("/" + u.domain() + "/" + u.file() + " "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(u));
            List<String> cells = List.of(row.split("\\|")).stream()
                    .map(String::trim)
                    .filter(c -> !c.isEmpty())
                    .toList();
            assertEquals(
                    List.of(
                            u.domain(),
                            String.valueOf(u.records()),
                            String.valueOf(u.calls()),
                            "0",
                            String.valueOf(u.seconds())),
                    List.of(cells.get(0), cells.get(2), cells.get(3), cells.get(4), cells.get(5)),
                    row);
        }
        assertEquals(
                200.751,
                ReplayBench.upstream("retail", Path.of("x", "fuzz-seed11.jsonl"), 800, 5644)
                        .orElseThrow()
                        .seconds());
        assertEquals(
                26.384,
                ReplayBench.upstream("airline", Path.of("gold.jsonl"), 50, 142)
                        .orElseThrow()
                        .seconds());
        assertTrue(
                ReplayBench.upstream("retail", Path.of("fuzz-seed11.jsonl"), 799, 5644)
                        .isEmpty(),
                "another corpus of the same name");
        assertTrue(
                ReplayBench.upstream("airline", Path.of("fuzz-seed11.jsonl"), 800, 5487)
                        .isEmpty(),
                "no airline fuzz replay was recorded");
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ReplayBench.run(List.of("--domain", "retail"), System.out));
        assertThrows(
                IllegalArgumentException.class,
                () -> ReplayBench.run(List.of("--domain", "nope", "--corpus", "pom.xml"), System.out));
        assertThrows(
                IllegalArgumentException.class,
                () -> ReplayBench.run(List.of("--domain", "retail", "--corpus", "no-such.jsonl"), System.out));
        assertThrows(IllegalArgumentException.class, () -> ReplayBench.run(List.of("--repeat", "0"), System.out));
        assertThrows(IllegalArgumentException.class, () -> ReplayBench.run(List.of("--threads"), System.out));
    }
}
