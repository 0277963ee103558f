package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.testing.ReadOnlyDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentCommandTest {
    @TempDir
    Path tmp;

    record Out(int code, String out, String err) {}

    static Out cli(String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void runShowAttemptsAndTranscriptFromTheCommandLine() throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: yes-test
                domain: agree
                split: test
                candidates:
                  - {id: agreeable, provider: say, model: "yes"}
                  - {id: contrary, provider: say, model: "no"}
                repetitions: 2
                """);
        String dir = tmp.resolve("run").toString();
        Out run = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.err().contains("12 cells: 0 already done, 12 run (12 completed"), run.err());
        Out again = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertTrue(again.err().contains("12 cells: 12 already done, 0 run"), again.err());

        Out show = cli("experiment", "show", dir);
        assertEquals(0, show.code());
        assertTrue(
                show.out()
                        .matches(
                                "(?s).*agree\\s+agreeable\\s+3\\s+2\\s+6\\s+0\\s+1\\.00\\s+0\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s.*"),
                show.out());
        assertTrue(
                show.out().matches("(?s).*agree\\s+contrary\\s+3\\s+2\\s+6\\s+0\\s+0\\s+0\\s+0\\s+0\\s+0\\s+0\\s.*"),
                show.out());

        Out attempts = cli("experiment", "attempts", dir);
        assertEquals(13, attempts.out().lines().count(), attempts.out());
        Out checks = cli("experiment", "checks", dir);
        assertTrue(checks.out().matches("(?s).*contrary\\s+said_yes\\s+6\\s+6.*"), checks.out());
        Out t = cli("experiment", "transcript", dir, "1");
        assertTrue(t.out().contains("[user] say yes"), t.out());
        Out v = cli("experiment", "verify-world", dir, "1");
        assertEquals(2, v.code());
        assertTrue(v.err().contains("brings no world replay"), v.err());
        assertEquals(2, cli("experiment", "transcript", dir, "x").code());
    }

    @Test
    void theSyntheticLoopBenchmarkRunsFromAnExperimentFile() throws Exception {
        Path file = tmp.resolve("loop.json");
        Files.writeString(file, """
                {"name": "loop-smoke", "domain": "loop", "split": "smoke", "repetitions": 2, "parallelism": 4,
                 "candidates": [{"id": "ideal", "provider": "scripted", "model": "ideal"},
                                {"id": "early", "provider": "scripted", "model": "early-stop"}]}
                """);
        String dir = tmp.resolve("loop").toString();
        Out run = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(
                run.out()
                        .matches(
                                "(?s).*loop\\s+ideal\\s+2\\s+2\\s+4\\s+0\\s+1\\.00\\s+0\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s+1\\.00\\s.*"),
                run.out());
        assertTrue(run.out().matches("(?s).*loop\\s+early\\s+secret_correct\\s+4\\s+4.*"), run.out());
        Out v = cli("experiment", "verify-world", dir, "1");
        assertEquals(0, v.code(), v.err());
        assertTrue(v.out().contains("verified"), v.out());
        Out all = cli("experiment", "verify-world", dir);
        assertEquals(0, all.code(), all.err());
        assertTrue(all.out().contains("8 attempts verified, 0 mismatches"), all.out());
    }

    /**
     * A run that ends with cells without a verdict exits 3 (documented in --help) and says how many;
     * the candidate with no scored attempt shows "–" where its average reward would be, never 0.000.
     */
    @Test
    void aRunLeavingCellsWithoutAVerdictExitsThreeAndSaysHowMany() throws Exception {
        Path file = tmp.resolve("exp.yaml");
        Files.writeString(file, """
                name: half-down
                domain: agree
                split: test
                candidates:
                  - {id: agreeable, provider: say, model: "yes"}
                  - {id: broken, provider: say, model: down}
                repetitions: 2
                max_infra_retries: 1
                """);
        String dir = tmp.resolve("run").toString();
        Out first = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(3, first.code(), first.err());
        assertTrue(
                first.err()
                        .contains(
                                "6 of 12 cells have no verdict (0 out of infrastructure retries, 6 retried when the experiment is run again)"),
                first.err());
        // no reward, se, t95, pass^1..2, costs per episode (tokens, steps, calls, request characters), duration or
        // trust: 13 dashes
        assertTrue(first.out().matches("(?s).*agree\\s+broken\\s+0\\s+–\\s+0\\s+6(\\s+–){16}\\n.*"), first.out());
        assertFalse(first.out().contains("broken      0         0               6       0.000"), first.out());
        Out second = cli("experiment", "run", file.toString(), "--dir", dir, "--no-progress");
        assertEquals(3, second.code(), second.err());
        assertTrue(
                second.err().contains("6 of 12 cells have no verdict (6 out of infrastructure retries)"), second.err());
        Out show = cli("experiment", "show", dir);
        assertEquals(0, show.code());
        assertTrue(show.out().matches("(?s).*agree\\s+broken\\s+0\\s+–\\s+0\\s+12\\s+–\\s+–\\s+–\\s+–.*"), show.out());
        assertTrue(cli("experiment", "--help").out().contains("3 (run) the run ended with cells without a verdict"));
    }

    /** Deleting the store while a run is going fails the run loudly (exit 1, naming the file) instead of printing a scorecard nobody can read back. */
    @Test
    void aStoreDeletedDuringARunFailsItWithANonZeroExit() throws Exception {
        Path file = tmp.resolve("slow.yaml");
        Files.writeString(
                file,
                "name: slow\ndomain: agree\nsplit: test\ncandidates: [{id: s, provider: say, model: slow}]\nrepetitions: 20\nparallelism: 2\n");
        Path dir = tmp.resolve("slow");
        Path db = dir.resolve("experiment.db");
        var run = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> cli("experiment", "run", file.toString(), "--dir", dir.toString(), "--no-progress"));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && !run.isDone()) {
            if (Files.exists(dir.resolve("experiment.db-wal")) && Files.size(dir.resolve("experiment.db-wal")) > 20_000)
                break;
            Thread.sleep(10);
        }
        assertFalse(run.isDone(), "the run ended before the store could be deleted");
        for (String suffix : List.of("", "-wal", "-shm")) Files.deleteIfExists(Path.of(db + suffix));
        Out o = run.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(1, o.code(), o.out() + o.err());
        assertTrue(
                o.err().contains(db + ": the store was deleted or replaced while this run was writing to it"), o.err());
        assertFalse(o.out().contains("per task"), "no scorecard: " + o.out());
    }

    /** Inspection refuses a file that is not a Brokkr store, leaves it as it was, and exits 1 naming it. */
    @Test
    void inspectionRefusesAForeignStoreAndLeavesItAlone() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("foreign"));
        Path db = dir.resolve("experiment.db");
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
                var s = c.createStatement()) {
            s.execute("CREATE TABLE cell(x)"); // one table of the same name is not a store
        }
        byte[] before = Files.readAllBytes(db);
        for (List<String> cmd :
                List.of(List.of("show"), List.of("attempts"), List.of("checks"), List.of("transcript", "x", "1"))) {
            List<String> args = new java.util.ArrayList<>(List.of("experiment", cmd.getFirst(), dir.toString()));
            if (cmd.size() > 1) args.add(cmd.get(2));
            Out o = cli(args.toArray(String[]::new));
            assertEquals(1, o.code(), cmd + ": " + o.err());
            assertTrue(o.err().contains(db + " is not a Brokkr experiment store"), o.err());
        }
        Out run = cli("experiment", "run", writeSpec().toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(1, run.code(), run.err());
        assertTrue(run.err().contains("is not a Brokkr experiment store"), run.err());
        assertArrayEquals(before, Files.readAllBytes(db));
        try (var files = Files.list(dir)) {
            assertEquals(
                    List.of("experiment.db", "run.lock"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    private Path writeSpec() throws Exception {
        Path file = tmp.resolve("yes.yaml");
        Files.writeString(
                file,
                "name: agree-ro\ndomain: agree\nsplit: test\ncandidates: [{id: a, provider: say, model: \"yes\"}]\n");
        return file;
    }

    /** Every inspection command works on a read-only directory (as root: an immutable one) and changes no file in it. */
    @Test
    void inspectionWorksOnAReadOnlyDirectory() throws Exception {
        String dir = tmp.resolve("ro").toString();
        assertEquals(
                0,
                cli("experiment", "run", writeSpec().toString(), "--dir", dir, "--no-progress")
                        .code());
        Map<String, Long> before = sizes(Path.of(dir));
        try (ReadOnlyDirectory ro = ReadOnlyDirectory.of(Path.of(dir))) {
            for (String[] cmd : List.of(
                    new String[] {"show", dir},
                    new String[] {"attempts", dir},
                    new String[] {"checks", dir},
                    new String[] {"transcript", dir, "1"})) {
                List<String> args = new java.util.ArrayList<>(List.of("experiment"));
                args.addAll(List.of(cmd));
                Out o = cli(args.toArray(String[]::new));
                assertEquals(0, o.code(), String.join(" ", cmd) + ": " + o.err());
            }
            assertTrue(cli("experiment", "show", dir).out().contains("agree"));
        }
        assertEquals(before, sizes(Path.of(dir)));
    }

    private static Map<String, Long> sizes(Path dir) throws Exception {
        Map<String, Long> out = new java.util.TreeMap<>();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList())
                out.put(
                        p.getFileName().toString(),
                        Files.size(p) * 1_000_000_000_000L
                                + Files.getLastModifiedTime(p).toMillis());
        }
        return out;
    }

    @Test
    void badArgumentsAreUsageErrors() throws Exception {
        assertEquals(2, cli("experiment").code());
        assertEquals(2, cli("experiment", "fly").code());
        assertEquals(2, cli("experiment", "run").code());
        assertEquals(
                2,
                cli("experiment", "run", tmp.resolve("missing.yaml").toString()).code());
        assertEquals(2, cli("experiment", "show", tmp.toString()).code());
        assertEquals(2, cli("experiment", "run", "a.yaml", "--bogus").code());
        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "domain: nowhere\nsplit: test\ncandidates: [{id: a, provider: say, model: x}]\n");
        Out o = cli(
                "experiment", "run", bad.toString(), "--dir", tmp.resolve("d").toString(), "--no-progress");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("unknown domain 'nowhere'"), o.err());
        Files.writeString(
                bad, "domain: agree\nsplit: test\ncandidates: [{id: a, provider: say, model: x}]\nrepetitons: 2\n");
        assertTrue(cli("experiment", "run", bad.toString()).err().contains("unknown key 'repetitons'"));
    }
}
