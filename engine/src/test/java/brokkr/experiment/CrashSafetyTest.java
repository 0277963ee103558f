package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts the experiment in a child JVM, SIGKILLs it at several points after some attempts were
 * committed, resumes, and checks that every cell has exactly one completed attempt and that the
 * scorecard equals an uninterrupted run's.
 */
class CrashSafetyTest {
    @TempDir
    Path tmp;

    private static final int LATENCY_MS = 25;

    @Test
    void killedRunsResumeToTheUninterruptedScorecard() throws Exception {
        Path dir = tmp.resolve("killed");
        int total = CrashChild.TASKS * 2 * CrashChild.REPETITIONS;
        int previous = 0;
        for (int threshold : List.of(15, 70, 125)) {
            Process p = child(dir);
            int seen = waitForAttempts(dir, threshold, p);
            assertTrue(p.isAlive(), "the child must still be running when killed (saw " + seen + " attempts)");
            p.destroyForcibly(); // SIGKILL on Unix: no shutdown hooks, no clean close
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            int after = count(dir);
            assertTrue(after >= threshold && after > previous && after < total, "attempts after kill: " + after);
            // The read-only side reads a killed writer's store (its WAL index is rebuilt in memory, no file is
            // written).
            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                assertEquals(after, q.attempts(false).size());
            }
            previous = after;
        }
        var resumed = Experiments.run(CrashChild.spec(LATENCY_MS), dir, CrashChild.registry());
        assertEquals(previous, resumed.skipped(), "every committed attempt survives the kills and is not re-run");
        assertEquals(total - previous, resumed.ran());

        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            assertEquals(total, store.cells().size());
            Map<ExperimentStore.CellKey, Integer> completed = new HashMap<>();
            for (Attempt a : store.attempts(false)) {
                assertTrue(a.completed(), "no attempt of this experiment fails: " + a.error());
                completed.merge(
                        new ExperimentStore.CellKey(a.environmentId(), a.agentId(), a.repetition()), 1, Integer::sum);
            }
            assertEquals(total, completed.size());
            completed.forEach((k, n) -> assertEquals(1, n, "cell " + k));
        }
        var clean = Experiments.run(CrashChild.spec(LATENCY_MS), tmp.resolve("clean"), CrashChild.registry());
        assertEquals(clean.scorecard().withoutCost(), resumed.scorecard().withoutCost());
        assertEquals(0, resumed.scorecard().pendingCells());
    }

    private Process child(Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashChild.class.getName(),
                        dir.toString(),
                        Integer.toString(LATENCY_MS))
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("child.log").toFile())
                .start();
    }

    /** Polls the store from this process (WAL allows a reader beside the writer) until {@code n} attempts are committed. */
    private int waitForAttempts(Path dir, int n, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive())
                throw new AssertionError("child exited early: " + Files.readString(tmp.resolve("child.log")));
            int c = Files.exists(ExperimentStore.file(dir)) ? count(dir) : 0;
            if (c >= n) return c;
            Thread.sleep(2);
        }
        throw new AssertionError("no progress: " + Files.readString(tmp.resolve("child.log")));
    }

    private static int count(Path dir) throws Exception {
        try (Connection c = DriverManager.getConnection(
                        "jdbc:sqlite:" + ExperimentStore.file(dir).toAbsolutePath());
                Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout=5000");
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name = 'attempt'")) {
                if (!r.next() || r.getInt(1) == 0) return 0;
            }
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM attempt")) {
                r.next();
                return r.getInt(1);
            }
        }
    }
}
