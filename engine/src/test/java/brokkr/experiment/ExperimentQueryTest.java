package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's read side: it cannot write, refuses what it cannot read, and sees what the writer committed. */
class ExperimentQueryTest {
    @TempDir
    Path tmp;

    private Path run(String name) {
        Path dir = tmp.resolve(name);
        var spec = ExperimentTest.spec("all", 2, 2, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        Experiments.run(spec, dir, ExperimentTest.registry(2, new QuizBench.Models()));
        return dir;
    }

    @Test
    void aQueryCannotWrite() {
        Path dir = run("x");
        try (StoreConnection reader = StoreConnection.forReading(ExperimentStore.file(dir))) {
            var e = assertThrows(
                    ExperimentStore.StoreException.class,
                    () -> reader.tx(null, () -> {
                        try (Statement s = reader.connection().createStatement()) {
                            return s.executeUpdate("DELETE FROM attempt");
                        }
                    }));
            assertTrue(e.getMessage().contains("readonly"), e.getMessage());
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(4, q.attempts(true).size()); // nothing was deleted
        }
    }

    @Test
    void aQuerySeesWhatItsWriterCommitted() {
        Path dir = tmp.resolve("w");
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            assertEquals(List.of(), store.query().cells());
            var spec = ExperimentTest.spec("all", 1, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
            var plan = Planner.plan(spec, ExperimentTest.registry(1, new QuizBench.Models()))
                    .units();
            store.register(
                    "w",
                    spec.toJson(),
                    List.of(plan.getFirst().cell().env()),
                    List.of(plan.getFirst().cell().agent()),
                    List.of(StoreSink.row(plan.getFirst())));
            assertEquals(List.of(StoreSink.row(plan.getFirst())), store.query().cells());
            try (ExperimentQuery beside = ExperimentQuery.open(dir)) {
                assertEquals(
                        List.of(StoreSink.row(plan.getFirst())),
                        beside.cells()); // a second connection, beside the writer
            }
            store.query().close(); // the writer's own query leaves its connection open
            assertEquals(1, store.query().cells().size());
        }
    }

    /**
     * {@code experiment attempts} reads only the columns it prints: an attempt whose evidence cannot be
     * parsed (here deliberately broken) is still listed; only opening that attempt reads it.
     */
    @Test
    void theAttemptsListingDoesNotReadEvidence() throws Exception {
        Path dir = run("x");
        try (Connection c = DriverManager.getConnection(
                        "jdbc:sqlite:" + ExperimentStore.file(dir).toAbsolutePath());
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE attempt SET evidence_json = '{not json' WHERE id = 2");
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            var rows = Inspect.attempts(q, false);
            assertEquals(4, rows.size());
            assertEquals(
                    List.of(1L, 2L, 3L, 4L),
                    rows.stream().map(r -> r.attempt().id()).toList());
            assertTrue(rows.stream()
                    .allMatch(r -> r.attempt().success() && r.attempt().checks().size() == 3));
            assertTrue(
                    rows.getFirst().attempt().evidence().agentUsage().inputTokens() > 0,
                    "usage comes from its own columns");
            assertThrows(RuntimeException.class, () -> q.attempt(2));
            assertEquals(1, q.attempt(1).orElseThrow().evidence().modelCalls().size());
        }
    }

    @Test
    void aDirectoryWithoutAStoreOrWithANewerOneIsRefused() throws Exception {
        var none = assertThrows(IllegalArgumentException.class, () -> ExperimentQuery.open(tmp));
        assertTrue(none.getMessage().contains("holds no experiment"), none.getMessage());

        Path dir = run("newer");
        try (Connection c = DriverManager.getConnection(
                        "jdbc:sqlite:" + ExperimentStore.file(dir).toAbsolutePath());
                Statement s = c.createStatement()) {
            s.execute("PRAGMA user_version=" + (ExperimentStore.SCHEMA_VERSION + 1));
        }
        var read = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentQuery.open(dir));
        assertTrue(
                read.getCause() == null
                        && read.getMessage().contains("schema version " + (ExperimentStore.SCHEMA_VERSION + 1)),
                read.getMessage());
        assertThrows(ExperimentStore.StoreException.class, () -> ExperimentStore.openForRun(dir));
        // the refused writer released the run lock: the directory is not left locked
        var again = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentStore.openForRun(dir));
        assertTrue(again.getMessage().contains("schema version"), again.getMessage());
        assertTrue(Files.isRegularFile(ExperimentStore.file(dir)));
    }
}
