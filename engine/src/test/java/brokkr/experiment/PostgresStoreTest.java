package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.testing.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL experiment store against a real server ({@link PostgresServer}): the same experiment run into
 * SQLite and into PostgreSQL gives the same cells, attempts and scorecard; resume skips what is done; the views
 * read the same; opening refuses what is not a Brokkr store and creates nothing when it fails.
 */
class PostgresStoreTest {
    @TempDir
    Path tmp;

    private static final PostgresServer PG = PostgresServer.shared();

    static ExperimentSpec spec() {
        return ExperimentTest.spec(
                "all",
                3,
                4,
                2,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null),
                        ExperimentTest.candidate("flaky", "flaky", null)));
    }

    @Test
    void aRunIntoPostgresqlEqualsTheSameRunIntoSqlite() throws Exception {
        try (var db = PG.createDatabase()) {
            StoreLocation pg = StoreLocation.parse(db.url());
            var lite = Experiments.run(spec(), tmp.resolve("x"), ExperimentTest.registry(4, new QuizBench.Models()));
            var post = Experiments.run(spec(), pg, ExperimentTest.registry(4, new QuizBench.Models()));
            assertEquals(lite.cells(), post.cells());
            assertEquals(lite.completed(), post.completed());
            try (var a = ExperimentQuery.open(tmp.resolve("x"));
                    var b = ExperimentQuery.open(pg)) {
                assertEquals(a.cells(), b.cells());
                assertEquals(a.cellStates(), b.cellStates());
                assertEquals(scores(Scorecard.of(a)), scores(Scorecard.of(b)));
                assertEquals(outcomes(a), outcomes(b));
                assertEquals(a.attempts(true).size(), b.attempts(true).size());
                assertEquals(a.overview().cells(), b.overview().cells());
                assertEquals(a.overview().cellsDone(), b.overview().cellsDone());
            }
            // Resume: nothing left to run.
            var again = Experiments.run(spec(), pg, ExperimentTest.registry(4, new QuizBench.Models()));
            assertEquals(0, again.ran());
        }
    }

    @Test
    void theViewsReadTheSameRowsInBothStores() throws Exception {
        try (var db = PG.createDatabase()) {
            StoreLocation pg = StoreLocation.parse(db.url());
            Experiments.run(spec(), tmp.resolve("x"), ExperimentTest.registry(2, new QuizBench.Models()));
            Experiments.run(spec(), pg, ExperimentTest.registry(2, new QuizBench.Models()));
            for (String view : StoreViews.VIEWS.keySet()) {
                if (view.equals("attempts_v") || view.equals("cells_v")) continue; // times differ between runs
                String order = view.equals("scores_v") ? "" : " ORDER BY 1, 2, 3, 4";
                try (Connection c = db.connect();
                        Statement s = c.createStatement()) {
                    s.execute("SET search_path TO brokkr");
                    List<String> rows = rows(s.executeQuery("SELECT * FROM " + view + order));
                    assertFalse(rows.isEmpty(), view);
                }
            }
        }
    }

    /** The scorecard without its timings (which differ between two runs). */
    static List<String> scores(Scorecard s) {
        return s.rows().stream()
                .map(r -> r.candidate() + " " + r.agentId() + " " + r.tasks() + " " + r.attempts() + " " + r.avgReward()
                        + " " + r.passHatK() + " " + r.perTask() + " " + r.perCheck() + " " + r.trust())
                .toList();
    }

    /** Each attempt's cell, status, reward and checks, in the cells' order. */
    static List<String> outcomes(ExperimentQuery q) {
        return q.attempts(false).stream()
                .map(a -> a.environmentId() + " " + a.agentId() + " " + a.repetition() + " " + a.status() + " "
                        + a.reward() + " " + a.checks())
                .sorted()
                .toList();
    }

    static List<String> rows(ResultSet r) throws Exception {
        List<String> out = new ArrayList<>();
        int n = r.getMetaData().getColumnCount();
        while (r.next()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= n; i++) sb.append(r.getString(i)).append('|');
            out.add(sb.toString());
        }
        return out;
    }

    @Test
    void aDatabaseWithoutTheStoreIsRefusedByReadersAndNothingIsCreated() throws Exception {
        try (var db = PG.createDatabase()) {
            var e = assertThrows(
                    ExperimentStore.StoreException.class, () -> ExperimentQuery.open(StoreLocation.parse(db.url())));
            assertTrue(e.getMessage().contains("holds no experiment store"), e.getMessage());
            try (Connection c = db.connect();
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'brokkr'")) {
                r.next();
                assertEquals(0, r.getInt(1));
            }
        }
    }

    @Test
    void aSchemaOfOtherTablesIsLeftAsItIs() throws Exception {
        try (var db = PG.createDatabase()) {
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA lab; CREATE TABLE lab.results(x int)");
            }
            var e = assertThrows(
                    ExperimentStore.StoreException.class,
                    () -> ExperimentStore.openForRun(StoreLocation.parse(db.url("lab")))
                            .close());
            assertTrue(e.getMessage().contains("is not a Brokkr experiment store"), e.getMessage());
            try (Connection c = db.connect();
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery(
                            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'lab'")) {
                r.next();
                assertEquals(1, r.getInt(1));
            }
        }
    }

    @Test
    void aStoreOfAnotherSchemaVersionIsRefused() throws Exception {
        try (var db = PG.createDatabase()) {
            StoreLocation pg = StoreLocation.parse(db.url());
            ExperimentStore.openForRun(pg).close();
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("UPDATE brokkr.brokkr_store SET schema_version = 99");
            }
            var e = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentQuery.open(pg));
            assertTrue(e.getMessage().contains("schema version 99"), e.getMessage());
            var w = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentStore.openForRun(pg));
            assertTrue(w.getMessage().contains("schema version 99"), w.getMessage());
        }
    }

    @Test
    void twoRunnersOfOneStoreAreRefused() throws Exception {
        try (var db = PG.createDatabase()) {
            StoreLocation pg = StoreLocation.parse(db.url());
            try (ExperimentStore first = ExperimentStore.openForRun(pg)) {
                var e = assertThrows(IllegalStateException.class, () -> ExperimentStore.openForRun(pg));
                assertTrue(e.getMessage().contains("being run by another process"), e.getMessage());
            }
            ExperimentStore.openForRun(pg).close(); // released with the first
            // Writers beside each other (a fleet's workers) take no run lock; an SQLite store has one writer.
            try (ExperimentStore a = ExperimentStore.openShared(pg);
                    ExperimentStore b = ExperimentStore.openShared(pg)) {
                var attempts = StoreCostBench.register(a, 2);
                a.record(attempts.get(0));
                b.record(attempts.get(1));
                assertEquals(2, a.query().attempts(false).size());
                var twice = assertThrows(ExperimentStore.StoreException.class, () -> b.record(attempts.get(0)));
                assertTrue(twice.getMessage().contains("one_completed_attempt"), twice.getMessage());
            }
            assertThrows(IllegalArgumentException.class, () -> ExperimentStore.openShared(StoreLocation.of(tmp)));
        }
    }

    @Test
    void aOneProcessRunAndWorkersAreNeverOnOneStoreAtOnce() throws Exception {
        try (var db = PG.createDatabase()) {
            PostgresLocation pg = (PostgresLocation) StoreLocation.parse(db.url());
            ExperimentStore.openForRun(pg).close(); // the schema exists
            try (ExperimentStore run = ExperimentStore.openForRun(pg)) {
                var e = assertThrows(
                        IllegalArgumentException.class, () -> Fleet.sharingTheRunLock(pg, pg.connect(PgStore.env())));
                assertTrue(e.getMessage().contains("being run by a single process"), e.getMessage());
            }
            try (java.sql.Connection worker = Fleet.sharingTheRunLock(pg, pg.connect(PgStore.env()));
                    java.sql.Connection another = Fleet.sharingTheRunLock(pg, pg.connect(PgStore.env()))) {
                var e = assertThrows(IllegalStateException.class, () -> ExperimentStore.openForRun(pg));
                assertTrue(e.getMessage().contains("or by workers"), e.getMessage());
            }
            ExperimentStore.openForRun(pg).close(); // the workers' connections ended: their shared locks with them
        }
    }

    /** A store with attempts whose evidence has long texts kept as blobs, one of them with U+0000 in it. */
    static List<brokkr.eval.Attempt> recordLongTexts(StoreLocation where) {
        var spec = ExperimentTest.spec("all", 2, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
        var plan = Planner.plan(spec, ExperimentTest.registry(1, new QuizBench.Models()))
                .units();
        List<brokkr.eval.Attempt> out = new ArrayList<>();
        try (ExperimentStore store = ExperimentStore.openForRun(where)) {
            store.register(
                    spec.name(),
                    spec.toJson(),
                    List.of(plan.getFirst().cell().env()),
                    List.of(plan.getFirst().cell().agent()),
                    plan.stream().map(StoreSink::row).toList());
            for (int r = 0; r < 2; r++) {
                var row = StoreSink.row(plan.get(r));
                String text = EvidenceCodecTest.answer(5000, r) + (r == 1 ? "tool output with a NUL \0 byte" : "");
                out.add(store.record(new brokkr.eval.Attempt(
                        0,
                        row.key().environmentId(),
                        row.key().agentId(),
                        r,
                        row.taskId(),
                        brokkr.eval.Attempt.Status.COMPLETED,
                        List.of(new brokkr.eval.Check("correct", true)),
                        1.0,
                        brokkr.eval.TrustTier.DETERMINISTIC,
                        EvidenceCodecTest.evidence(text),
                        null,
                        1_700_000_000_123L + r,
                        42)));
            }
        }
        return out;
    }

    @Test
    void longTextsAndNulCharactersRoundTripThroughPostgresqlAndCopiesBothWays() throws Exception {
        try (var db = PG.createDatabase()) {
            StoreLocation pg = StoreLocation.parse(db.url()),
                    lite = StoreLocation.of(tmp.resolve("lite")),
                    back = StoreLocation.of(tmp.resolve("back")),
                    pg2 = StoreLocation.parse(db.url("second"));
            List<brokkr.eval.Attempt> written = recordLongTexts(pg);
            try (var q = ExperimentQuery.open(pg)) {
                for (var a : written) assertEquals(a, q.attempt(a.id()).orElseThrow());
            }
            var toLite = StoreCopy.copy(pg, lite);
            assertEquals(2, toLite.rows("attempt"));
            assertTrue(toLite.rows("blob") >= 2, toLite.rows().toString());
            StoreCopy.copy(lite, pg2);
            StoreCopy.copy(pg2, back);
            try (var a = ExperimentQuery.open(pg);
                    var b = ExperimentQuery.open(lite);
                    var c = ExperimentQuery.open(pg2);
                    var d = ExperimentQuery.open(back)) {
                assertEquals(a.attempts(false), b.attempts(false));
                assertEquals(a.attempts(false), c.attempts(false));
                assertEquals(a.attempts(false), d.attempts(false));
                assertEquals(a.cells(), d.cells());
            }
            // The next attempt of a copied PostgreSQL store comes after the copied ids (its identity was moved on).
            try (ExperimentStore s = ExperimentStore.openForRun(pg2)) {
                var w = written.getFirst();
                var next = s.record(new brokkr.eval.Attempt(
                        0,
                        w.environmentId(),
                        w.agentId(),
                        w.repetition(),
                        w.taskId(),
                        brokkr.eval.Attempt.Status.INFRASTRUCTURE_FAILURE,
                        List.of(),
                        0.0,
                        null,
                        w.evidence(),
                        "infrastructure failure: a test",
                        w.startedAtMillis(),
                        1));
                assertEquals(written.getLast().id() + 1, next.id());
            }
        }
    }

    @Test
    void aRunWaitsForARestartedServerAndGoesOn() throws Exception {
        try (PostgresServer own = PostgresServer.start()) {
            own.sql("CREATE DATABASE r");
            StoreLocation pg = StoreLocation.parse(own.url("r", null));
            try (ExperimentStore store = ExperimentStore.openForRun(pg)) {
                List<brokkr.eval.Attempt> attempts = StoreCostBench.register(store, 3);
                store.record(attempts.get(0));
                own.stop();
                Thread restart = Thread.ofPlatform().start(() -> {
                    try {
                        Thread.sleep(2000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    own.restart();
                });
                // Committed while the server is down: waits for it, reconnects, takes the run lock again, commits.
                store.record(attempts.get(1));
                restart.join();
                store.record(attempts.get(2));
                assertEquals(3, store.query().attempts(false).size());
                // The run lock came back with the new connection.
                assertThrows(IllegalStateException.class, () -> ExperimentStore.openForRun(pg));
            }
            try (var q = ExperimentQuery.open(pg)) {
                own.stop();
                own.restart();
                assertEquals(
                        3,
                        q.cellStates().values().stream()
                                .filter(c -> c.completed() == 1)
                                .count());
            }
        }
    }

    @Test
    void sqliteViewsAreByteForByteThoseEarlierBrokkrCreated() {
        // Factoring the views' SQL for two dialects must not change a single byte of SQLite's (a changed definition
        // would make every writer drop and recreate the views of every existing store).
        assertEquals(
                "bc9437a911db110f9c1856f8c889b84aa5de98f4e3c39c9f34b5b9a75fc30605",
                StoreViews.digest(StoreDialect.SQLITE));
    }

    @Test
    void aUrlCarryingAPasswordIsRefusedWithoutEchoingIt() {
        for (String url : List.of(
                "postgresql://alice:hunter2@localhost/db",
                "postgresql://localhost/db?password=hunter2",
                "postgres://alice:hunter2@localhost:5433/db?schema=x")) {
            var e = assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse(url));
            assertTrue(e.getMessage().contains("carries a password"), e.getMessage());
            assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        }
        assertEquals(
                "postgresql://alice@db.lab:5433/evals?schema=run1",
                StoreLocation.parse("postgresql://alice@db.lab:5433/evals?schema=run1")
                        .display());
    }
}
