package brokkr.cli;

import static brokkr.cli.FleetFixture.cli;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.cli.FleetFixture.ModelServer;
import brokkr.cli.FleetFixture.Run;
import brokkr.experiment.testing.PostgresServer;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Experiments across machines, end to end: cells queued in a real PostgreSQL store by
 * {@code experiment run --store URL --workers 0} and run by {@code brokkr worker} processes (separate
 * JVMs), against scripted candidates and a loopback OpenAI-compatible model server with latency.
 * Leases are short here (seconds) so that expiry and re-claims happen within a test.
 */
class FleetTest {
    @TempDir
    Path tmp;

    /** Short leases and heartbeats, so that a killed worker's cells are claimed again within a second or two. */
    private static final String[] FAST = {"--lease-seconds", "1.5", "--heartbeat-seconds", "0.25"};

    @Test
    void threeWorkersRunEveryCellOnceAsOneProcessOnSqliteDoes() throws Exception {
        Path spec = FleetFixture.spec(
                tmp,
                "loop2000",
                50,
                20,
                8,
                "{id: ideal, provider: scripted, model: ideal}",
                "{id: early, provider: scripted, model: early-stop}");
        Path dir = tmp.resolve("sqlite");
        Run single = cli("experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, single.code(), single.err());
        try (PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            String url = db.url("fleet");
            Run reg = cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0");
            assertEquals(0, reg.code(), reg.err() + reg.out());
            assertTrue(reg.out().contains("2000 cells queued"), reg.out());
            List<Process> workers = new ArrayList<>();
            for (int i = 0; i < 3; i++)
                workers.add(FleetFixture.worker(url, tmp.resolve("w" + i + ".log"), Map.of(), "--slots", "4"));
            for (int i = 0; i < 3; i++) assertEquals(0, FleetFixture.await(workers.get(i), 240), log(i));
            Map<String, String> pg = cells(db.connect(), "fleet");
            Map<String, String> sqlite =
                    cells(DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("experiment.db")), null);
            assertEquals(2000, pg.size());
            assertEquals(sqlite, pg, "per-cell results (less wall-clock timings) equal one process on SQLite");
            assertEquals(
                    2000, count(db.connect(), "fleet", "SELECT count(*) FROM attempt"), "exactly one attempt per cell");
            // Every worker took part (the claims are spread, not one worker doing everything).
            try (Connection c = db.connect();
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT recorded FROM fleet.fleet_worker")) {
                int n = 0;
                while (r.next()) {
                    assertTrue(r.getInt(1) > 0, "a worker recorded nothing");
                    n++;
                }
                assertEquals(3, n);
            }
            for (String view : List.of("--summary", "--tasks", "--checks")) {
                Run a = cli("experiment", "show", dir.toString(), view, "--format", "csv");
                Run b = cli("experiment", "show", url, view, "--format", "csv");
                assertEquals(0, b.code(), b.err());
                assertEquals(withoutDurations(a.out()), withoutDurations(b.out()), "experiment show " + view);
            }
            Run status = cli("experiment", "status", "--store", url);
            assertEquals(0, status.code(), status.err());
            assertTrue(status.out().contains("2000 done, 0 running, 0 pending"), status.out());
        }
    }

    @Test
    void killedAndStalledWorkersLoseNothingAndLateResultsAreRefused() throws Exception {
        try (ModelServer model = new ModelServer(100);
                PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            Path spec = FleetFixture.spec(tmp, "kills", 4, 100, 4, "{id: gpt, provider: openai, model: loop-model}");
            String url = db.url("kills");
            assertEquals(
                    0,
                    cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0")
                            .code());
            Map<String, String> env = Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-test");
            Process[] w = new Process[3];
            int started = 0;
            for (int i = 0; i < 3; i++) w[i] = start(url, env, started++);
            Random random = new Random(23);
            int kills = 0;
            boolean stalled = false;
            int stalls = 0;
            while (kills < 20) {
                Thread.sleep(150 + random.nextInt(250));
                int i = random.nextInt(3);
                assertTrue(w[i].isAlive() || w[i].exitValue() == 0, "worker " + i + " failed: " + logs(started));
                // Only a worker that holds leases is killed (mid-cell); one still starting is left to start.
                if (!w[i].isAlive() || leases(db, "kills", w[i].pid()) == 0) continue;
                if (kills == 10 && !stalled) {
                    // A stalled worker (SIGSTOP longer than its lease): its cells are claimed again elsewhere, and the
                    // results it finishes once it goes on are refused.
                    signal("STOP", w[i]);
                    // Stopped until every cell it leased is another worker's (its 1.5 s lease expired and was
                    // claimed again), not for a fixed 3 s. A stop that lands inside one of its transactions keeps
                    // its rows locked, so no claim can take them (the claim skips locked rows): after 10 s it goes
                    // on and a later round stalls it (or another) again. Before, such a stop (likelier under load)
                    // let the worker finish its own cells with nothing to refuse, and the test failed.
                    long until = System.nanoTime() + 10_000_000_000L;
                    while (leases(db, "kills", w[i].pid()) > 0 && System.nanoTime() < until) Thread.sleep(100);
                    stalled = leases(db, "kills", w[i].pid()) == 0;
                    signal("CONT", w[i]);
                    assertTrue(stalls++ < 20, "no stall in 20 tries had its cells claimed again");
                    continue;
                }
                w[i].destroyForcibly().waitFor(); // SIGKILL: its leases are left to expire and be claimed again
                kills++;
                w[i] = start(url, env, started++);
            }
            for (Process p : w) assertEquals(0, FleetFixture.await(p, 240), logs(started));
            assertEquals(400, count(db.connect(), "kills", "SELECT count(*) FROM attempt"), "one attempt per cell");
            assertEquals(
                    400,
                    count(
                            db.connect(),
                            "kills",
                            "SELECT count(*) FROM attempt WHERE status = 'completed' AND reward = 1"));
            assertEquals(0, count(db.connect(), "kills", "SELECT count(*) FROM fleet_cell WHERE state <> 'done'"));
            int refused = count(db.connect(), "kills", "SELECT coalesce(sum(refused), 0) FROM fleet_worker");
            assertTrue(refused > 0, "the stalled worker's late results were refused");
            assertTrue(logs(started).contains("refused the late result"));
        }
    }

    private static int leases(PostgresServer.Database db, String schema, long pid) throws SQLException {
        return count(
                db.connect(),
                schema,
                "SELECT count(*) FROM fleet_cell WHERE state = 'leased' AND worker LIKE '%-" + pid + "-%'");
    }

    private static void signal(String sig, Process p) throws Exception {
        assertEquals(
                0,
                new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid()))
                        .start()
                        .waitFor());
    }

    @Test
    void workersWaitForARestartedServerAndGoOn() throws Exception {
        try (PostgresServer server = PostgresServer.start();
                ModelServer model = new ModelServer(100)) {
            PostgresServer.Database db = server.createDatabase();
            Path spec = FleetFixture.spec(tmp, "restart", 2, 60, 4, "{id: gpt, provider: openai, model: loop-model}");
            String url = db.url("restart");
            assertEquals(
                    0,
                    cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0")
                            .code());
            Map<String, String> env = Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-test");
            List<Process> workers = new ArrayList<>();
            for (int i = 0; i < 2; i++)
                workers.add(FleetFixture.worker(
                        url,
                        tmp.resolve("w" + i + ".log"),
                        env,
                        "--lease-seconds",
                        "20",
                        "--heartbeat-seconds",
                        "0.5"));
            while (count(db.connect(), "restart", "SELECT count(*) FROM attempt") < 30) Thread.sleep(100);
            server.stop();
            Thread.sleep(3_000);
            server.restart();
            for (int i = 0; i < 2; i++) assertEquals(0, FleetFixture.await(workers.get(i), 240), log(i));
            assertEquals(120, count(db.connect(), "restart", "SELECT count(*) FROM attempt"));
            assertEquals(
                    120, count(db.connect(), "restart", "SELECT count(*) FROM attempt WHERE status = 'completed'"));
            String logs = log(0) + log(1);
            assertTrue(logs.contains("the store is unreachable"), logs);
            assertTrue(logs.contains("reachable again"), logs);
        }
    }

    @Test
    void aProviderCapHoldsAcrossThreeWorkers() throws Exception {
        try (ModelServer model = new ModelServer(60);
                PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            Path spec = FleetFixture.spec(tmp, "capped", 2, 40, 8, "{id: gpt, provider: openai, model: loop-model}");
            String url = db.url("capped");
            Run reg = cli(
                    "experiment",
                    "run",
                    spec.toString(),
                    "--store",
                    url,
                    "--workers",
                    "0",
                    "--provider-limit",
                    "openai=5");
            assertEquals(0, reg.code(), reg.err());
            Map<String, String> env = Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-test");
            List<Process> workers = new ArrayList<>();
            // 3 × 8 slots: without the fleet's cap 24 requests would be in flight at once.
            for (int i = 0; i < 3; i++)
                workers.add(FleetFixture.worker(url, tmp.resolve("w" + i + ".log"), env, "--slots", "8"));
            for (int i = 0; i < 3; i++) assertEquals(0, FleetFixture.await(workers.get(i), 240), log(i));
            assertEquals(80, count(db.connect(), "capped", "SELECT count(*) FROM attempt WHERE status = 'completed'"));
            assertTrue(model.peak.get() <= 5, "peak in flight " + model.peak.get() + " over the cap of 5");
            assertEquals(5, model.peak.get(), "the cap is reached (the fleet is not slower than it needs to be)");
        }
    }

    @Test
    void theModelCacheIsSharedThroughTheStore() throws Exception {
        try (ModelServer model = new ModelServer(10);
                PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            Path spec = FleetFixture.spec(
                    tmp, "cached", 2, 10, 4, "{id: gpt, provider: openai, model: loop-model, cache: true}");
            String url = db.url("cached");
            assertEquals(
                    0,
                    cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0")
                            .code());
            Map<String, String> env = Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-test");
            List<Process> first = new ArrayList<>();
            for (int i = 0; i < 2; i++) first.add(FleetFixture.worker(url, tmp.resolve("w" + i + ".log"), env));
            for (int i = 0; i < 2; i++) assertEquals(0, FleetFixture.await(first.get(i), 240), log(i));
            int served = model.served.get();
            assertEquals(50, served, "2 tasks (2 and 3 calls) x 10 trials, each call once");
            assertEquals(50, count(db.connect(), "cached", "SELECT count(*) FROM model_cache"));
            // The same cells run again by new workers (their attempts cleared): every call is served from the
            // store's cache the first workers filled; the model is not called.
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("SET search_path TO cached");
                s.execute("DELETE FROM attempt");
                s.execute("UPDATE fleet_cell SET state = 'pending', recorded_epoch = NULL");
            }
            List<Process> second = new ArrayList<>();
            for (int i = 2; i < 4; i++) second.add(FleetFixture.worker(url, tmp.resolve("w" + i + ".log"), env));
            for (int i = 0; i < 2; i++) assertEquals(0, FleetFixture.await(second.get(i), 240), log(i + 2));
            assertEquals(served, model.served.get(), "the second run called the model");
            assertEquals(20, count(db.connect(), "cached", "SELECT count(*) FROM attempt WHERE status = 'completed'"));
        }
    }

    @Test
    void aWorkerRefusesAStoreOfAnotherSchemaVersionAndBadInput() throws Exception {
        try (PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            Path spec = FleetFixture.spec(tmp, "version", 2, 1, 1, "{id: ideal, provider: scripted, model: ideal}");
            String url = db.url("version");
            assertEquals(
                    0,
                    cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0")
                            .code());
            try (Connection c = db.connect();
                    Statement s = c.createStatement()) {
                s.execute("UPDATE version.brokkr_store SET schema_version = 99");
            }
            Run r = cli("worker", "--store", url);
            assertEquals(1, r.code(), r.err());
            assertTrue(r.err().contains("schema version 99"), r.err());
            assertEquals(0, count(db.connect(), "version", "SELECT count(*) FROM attempt"));
            Run none = cli("worker", "--store", db.url("nothing_here"));
            assertNotEquals(0, none.code());
            assertTrue(none.err().contains("no experiment store"), none.err());
        }
        Run noStore = cli("worker");
        assertEquals(2, noStore.code());
        Run password = cli("worker", "--store", "postgresql://u:secret@127.0.0.1:1/db");
        assertEquals(2, password.code());
        assertFalse(password.err().contains("secret"), password.err());
        Run slots = cli("worker", "--store", "postgresql://127.0.0.1:1/db", "--slots", "0");
        assertEquals(2, slots.code());
    }

    // ---------------------------------------------------------------- helpers

    private Process start(String url, Map<String, String> env, int n) throws Exception {
        List<String> args = new ArrayList<>(List.of(FAST));
        args.addAll(List.of("--slots", "4"));
        return FleetFixture.worker(url, tmp.resolve("w" + n + ".log"), env, args.toArray(String[]::new));
    }

    private static boolean anyAlive(Process[] w) {
        for (Process p : w) if (p.isAlive()) return true;
        return false;
    }

    private String log(int i) throws Exception {
        Path f = tmp.resolve("w" + i + ".log");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    private String logs(int n) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) sb.append(log(i));
        return sb.toString();
    }

    private static int count(Connection c, String schema, String sql) throws SQLException {
        try (c;
                Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet r = s.executeQuery(sql)) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    /**
     * Each cell's attempts as one text: status, reward, checks, evidence without its wall-clock
     * {@code timings}, error, tokens; keyed by the cell's content id.
     */
    static Map<String, String> cells(Connection c, String schema) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        Map<String, Integer> n = new HashMap<>();
        try (c;
                Statement s = c.createStatement()) {
            if (schema != null) s.execute("SET search_path TO " + schema);
            try (ResultSet r = s.executeQuery("""
                    SELECT env_id, agent_id, repetition, task_id, status, reward, checks_json, evidence_json, error,
                      input_tokens, output_tokens FROM attempt ORDER BY id""")) {
                while (r.next()) {
                    String key = r.getString(1) + "/" + r.getString(2) + "/" + r.getInt(3);
                    n.merge(key, 1, Integer::sum);
                    out.merge(
                            key,
                            String.join(
                                    "|",
                                    r.getString(4),
                                    r.getString(5),
                                    String.valueOf(r.getObject(6)),
                                    r.getString(7),
                                    withoutTimings(r.getString(8)),
                                    String.valueOf(r.getString(9)),
                                    Long.toString(r.getLong(10)),
                                    Long.toString(r.getLong(11))),
                            (a, b) -> a + "\n" + b);
                }
            }
        }
        return out;
    }

    private static String withoutTimings(String evidence) {
        PyDict d = Json.parse(evidence).asDict();
        PyDict.Builder b = PyDict.builder();
        for (var e : d.entries()) if (!e.getKey().equals("timings")) b.put(e.getKey(), e.getValue());
        return brokkr.python.PyJson.dumps(b.build());
    }

    /** A CSV output without its columns of wall-clock durations (which differ run to run). */
    static String withoutDurations(String csv) {
        StringBuilder out = new StringBuilder();
        List<Integer> drop = List.of();
        for (String line : csv.split("\n", -1)) {
            List<String> cols = List.of(line.split(",", -1));
            if (cols.stream().anyMatch(x -> x.contains("duration"))) {
                List<Integer> d = new ArrayList<>();
                for (int i = 0; i < cols.size(); i++) if (cols.get(i).contains("duration")) d.add(i);
                drop = d;
            }
            List<String> kept = new ArrayList<>();
            for (int i = 0; i < cols.size(); i++) if (!drop.contains(i)) kept.add(cols.get(i));
            out.append(String.join(",", kept)).append('\n');
        }
        return out.toString();
    }

    @SuppressWarnings("unused")
    private static List<Value> items(Value v) {
        return ((PyList) v).items();
    }
}
