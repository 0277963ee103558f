package brokkr.experiment;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.ContentHash;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.TrustTier;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The experiment directory's embedded store: one SQLite database ({@code experiment.db}, WAL,
 * {@code synchronous=NORMAL}) with the experiment, its definitions, its cells and every attempt.
 * Each attempt is committed in its own transaction when it finishes, so a killed process loses at
 * most the attempts still running; the partial unique index {@code one_completed_attempt} makes a
 * second completed attempt of a cell impossible. SQLite has one writer: all access goes through one
 * connection under a lock.
 *
 * <p>Cells are keyed by content: (environment id, agent id, repetition). A run marks the cells of its
 * spec active; cells of changed definitions stay in the store, inactive, with their attempts.
 */
public final class Store implements AutoCloseable {
    public static final String FILE = "experiment.db";

    /** A cell's identity. */
    public record CellKey(String environmentId, String agentId, int repetition) {}

    /** A cell of the experiment: its key, candidate label, benchmark and task, and whether the current spec has it. */
    public record Cell(CellKey key, String candidate, String benchmark, String taskId, boolean active) {}

    /** What the store knows about a cell's attempts, for resuming. */
    public record CellState(int completed, int infrastructureFailures) {}

    private final Connection conn;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicLong writeNanos = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();

    private Store(Connection conn) { this.conn = conn; }

    public static Path file(Path dir) { return dir.resolve(FILE); }

    /** Opens (creating when absent) the store of an experiment directory. */
    public static Store open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return connect(file(dir));
    }

    /** Opens an existing store; IllegalArgumentException when {@code dir} holds none. */
    public static Store openExisting(Path dir) {
        if (!Files.isRegularFile(file(dir))) throw new IllegalArgumentException(dir + " holds no experiment (no " + FILE + ")");
        return connect(file(dir));
    }

    private static Store connect(Path db) {
        try {
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA foreign_keys=ON");
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS experiment(
                          name TEXT PRIMARY KEY, spec_json TEXT NOT NULL, updated_at INTEGER NOT NULL)""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS environment_def(
                          id TEXT PRIMARY KEY, benchmark TEXT NOT NULL, task_id TEXT NOT NULL, json TEXT NOT NULL)""");
                s.execute("CREATE TABLE IF NOT EXISTS agent_def(id TEXT PRIMARY KEY, json TEXT NOT NULL)");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS cell(
                          env_id TEXT NOT NULL REFERENCES environment_def(id),
                          agent_id TEXT NOT NULL REFERENCES agent_def(id),
                          repetition INTEGER NOT NULL,
                          candidate TEXT NOT NULL, benchmark TEXT NOT NULL, task_id TEXT NOT NULL,
                          ordinal INTEGER NOT NULL, active INTEGER NOT NULL,
                          PRIMARY KEY(env_id, agent_id, repetition))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS attempt(
                          id INTEGER PRIMARY KEY AUTOINCREMENT,
                          env_id TEXT NOT NULL, agent_id TEXT NOT NULL, repetition INTEGER NOT NULL,
                          task_id TEXT NOT NULL, status TEXT NOT NULL, reward REAL, trust TEXT,
                          checks_json TEXT NOT NULL, evidence_json TEXT NOT NULL, error TEXT,
                          started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL,
                          input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
                          FOREIGN KEY(env_id, agent_id, repetition) REFERENCES cell(env_id, agent_id, repetition))""");
                s.execute("CREATE INDEX IF NOT EXISTS attempt_cell ON attempt(env_id, agent_id, repetition)");
                s.execute("""
                        CREATE UNIQUE INDEX IF NOT EXISTS one_completed_attempt
                          ON attempt(env_id, agent_id, repetition) WHERE status = 'completed'""");
            }
            c.setAutoCommit(false);
            c.commit();
            return new Store(c);
        } catch (SQLException e) {
            throw new StoreException("cannot open " + db, e);
        }
    }

    /** A store error (I/O, corruption): fatal for a run, never an attempt's outcome. */
    public static final class StoreException extends RuntimeException {
        public StoreException(String message, Throwable cause) { super(message, cause); }
    }

    private interface SqlWork<T> { T run() throws SQLException; }

    /** Runs {@code work} as one transaction under the writer lock. */
    private <T> T tx(SqlWork<T> work) {
        lock.lock();
        try {
            try {
                T r = work.run();
                conn.commit();
                return r;
            } catch (SQLException | RuntimeException e) {
                try { conn.rollback(); } catch (SQLException ignored) { /* the original error matters */ }
                if (e instanceof SQLException se) throw new StoreException(se.getMessage(), se);
                throw (RuntimeException) e;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records the experiment's current spec, its definitions and cells in one transaction: new cells are
     * inserted, every cell of the spec is marked active and every other cell inactive.
     */
    public void register(String name, String specJson, Collection<EnvironmentDef> envs, Collection<AgentDef> agents, List<Cell> cells) {
        tx(() -> {
            try (PreparedStatement e = conn.prepareStatement("INSERT INTO experiment(name, spec_json, updated_at) VALUES(?,?,?) "
                    + "ON CONFLICT(name) DO UPDATE SET spec_json = excluded.spec_json, updated_at = excluded.updated_at");
                 PreparedStatement env = conn.prepareStatement("INSERT OR IGNORE INTO environment_def(id, benchmark, task_id, json) VALUES(?,?,?,?)");
                 PreparedStatement ag = conn.prepareStatement("INSERT OR IGNORE INTO agent_def(id, json) VALUES(?,?)");
                 PreparedStatement cell = conn.prepareStatement("""
                         INSERT INTO cell(env_id, agent_id, repetition, candidate, benchmark, task_id, ordinal, active)
                         VALUES(?,?,?,?,?,?,?,1)
                         ON CONFLICT(env_id, agent_id, repetition) DO UPDATE SET
                           candidate = excluded.candidate, ordinal = excluded.ordinal, active = 1""");
                 Statement s = conn.createStatement()) {
                e.setString(1, name);
                e.setString(2, specJson);
                e.setLong(3, System.currentTimeMillis());
                e.executeUpdate();
                for (EnvironmentDef d : envs) {
                    env.setString(1, d.id());
                    env.setString(2, d.benchmark());
                    env.setString(3, d.taskId());
                    env.setString(4, ContentHash.canonicalJson(d.toValue()));
                    env.addBatch();
                }
                env.executeBatch();
                for (AgentDef a : agents) {
                    ag.setString(1, a.id());
                    ag.setString(2, ContentHash.canonicalJson(a.toValue()));
                    ag.addBatch();
                }
                ag.executeBatch();
                s.executeUpdate("UPDATE cell SET active = 0");
                int ordinal = 0;
                for (Cell c : cells) {
                    cell.setString(1, c.key().environmentId());
                    cell.setString(2, c.key().agentId());
                    cell.setInt(3, c.key().repetition());
                    cell.setString(4, c.candidate());
                    cell.setString(5, c.benchmark());
                    cell.setString(6, c.taskId());
                    cell.setInt(7, ordinal++);
                    cell.addBatch();
                }
                cell.executeBatch();
            }
            return null;
        });
    }

    /** Commits one finished attempt in its own transaction and returns it with its id. */
    public Attempt record(Attempt a) {
        long t0 = System.nanoTime();
        String checks = PyJson.dumps(checksValue(a.checks()), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
        String evidence = PyJson.dumps(a.evidence().toValue(), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
        long id = tx(() -> {
            try (PreparedStatement p = conn.prepareStatement("""
                    INSERT INTO attempt(env_id, agent_id, repetition, task_id, status, reward, trust, checks_json,
                      evidence_json, error, started_at, duration_ms, input_tokens, output_tokens)
                    VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)""", Statement.RETURN_GENERATED_KEYS)) {
                p.setString(1, a.environmentId());
                p.setString(2, a.agentId());
                p.setInt(3, a.repetition());
                p.setString(4, a.taskId());
                p.setString(5, a.status().wire());
                if (a.completed()) p.setDouble(6, a.reward()); else p.setNull(6, Types.REAL);
                p.setString(7, a.trust() == null ? null : a.trust().name());
                p.setString(8, checks);
                p.setString(9, evidence);
                p.setString(10, a.error());
                p.setLong(11, a.startedAtMillis());
                p.setLong(12, a.durationMillis());
                p.setLong(13, a.evidence().agentUsage().inputTokens());
                p.setLong(14, a.evidence().agentUsage().outputTokens());
                p.executeUpdate();
                try (ResultSet k = p.getGeneratedKeys()) {
                    k.next();
                    return k.getLong(1);
                }
            }
        });
        writeNanos.addAndGet(System.nanoTime() - t0);
        writes.incrementAndGet();
        return a.withId(id);
    }

    /** Attempts recorded by this store object and the mean time each took to serialize and commit. */
    public long writes() { return writes.get(); }
    public double meanWriteMillis() { long n = writes.get(); return n == 0 ? 0 : writeNanos.get() / 1e6 / n; }

    /** Per cell: completed attempts and infrastructure failures so far. */
    public Map<CellKey, CellState> cellStates() {
        return read(() -> {
            Map<CellKey, CellState> out = new LinkedHashMap<>();
            try (Statement s = conn.createStatement(); ResultSet r = s.executeQuery("""
                    SELECT c.env_id, c.agent_id, c.repetition,
                      SUM(CASE WHEN a.status = 'completed' THEN 1 ELSE 0 END),
                      SUM(CASE WHEN a.status = 'infrastructure_failure' THEN 1 ELSE 0 END)
                    FROM cell c LEFT JOIN attempt a
                      ON a.env_id = c.env_id AND a.agent_id = c.agent_id AND a.repetition = c.repetition
                    GROUP BY c.env_id, c.agent_id, c.repetition""")) {
                while (r.next()) out.put(new CellKey(r.getString(1), r.getString(2), r.getInt(3)), new CellState(r.getInt(4), r.getInt(5)));
            }
            return out;
        });
    }

    /** The cells, active ones first in the spec's order. */
    public List<Cell> cells() {
        return read(() -> {
            List<Cell> out = new ArrayList<>();
            try (Statement s = conn.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT env_id, agent_id, repetition, candidate, benchmark, task_id, active FROM cell ORDER BY active DESC, ordinal")) {
                while (r.next()) {
                    out.add(new Cell(new CellKey(r.getString(1), r.getString(2), r.getInt(3)), r.getString(4), r.getString(5),
                            r.getString(6), r.getInt(7) == 1));
                }
            }
            return out;
        });
    }

    /** The name and spec JSON of the experiment last run in this directory. */
    public Optional<Map.Entry<String, String>> experiment() {
        return read(() -> {
            try (Statement s = conn.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT name, spec_json FROM experiment ORDER BY updated_at DESC LIMIT 1")) {
                return r.next() ? Optional.of(Map.entry(r.getString(1), r.getString(2))) : Optional.empty();
            }
        });
    }

    /** Every attempt, oldest first; with {@code activeOnly}, only those of the current spec's cells. */
    public List<Attempt> attempts(boolean activeOnly) {
        String where = activeOnly ? " JOIN cell c ON c.env_id = a.env_id AND c.agent_id = a.agent_id AND c.repetition = a.repetition WHERE c.active = 1" : "";
        return queryAttempts("SELECT a.* FROM attempt a" + where + " ORDER BY a.id", null);
    }

    public Optional<Attempt> attempt(long id) {
        List<Attempt> l = queryAttempts("SELECT a.* FROM attempt a WHERE a.id = ?", id);
        return l.isEmpty() ? Optional.empty() : Optional.of(l.getFirst());
    }

    public Optional<EnvironmentDef> environment(String id) {
        return read(() -> {
            try (PreparedStatement p = conn.prepareStatement("SELECT json FROM environment_def WHERE id = ?")) {
                p.setString(1, id);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(EnvironmentDef.fromValue(Json.parse(r.getString(1)))) : Optional.empty();
                }
            }
        });
    }

    public Optional<AgentDef> agent(String id) {
        return read(() -> {
            try (PreparedStatement p = conn.prepareStatement("SELECT json FROM agent_def WHERE id = ?")) {
                p.setString(1, id);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(AgentDef.fromValue(Json.parse(r.getString(1)))) : Optional.empty();
                }
            }
        });
    }

    private List<Attempt> queryAttempts(String sql, Long param) {
        return read(() -> {
            List<Attempt> out = new ArrayList<>();
            try (PreparedStatement p = conn.prepareStatement(sql)) {
                if (param != null) p.setLong(1, param);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        String trust = r.getString("trust");
                        double reward = r.getDouble("reward");
                        out.add(new Attempt(r.getLong("id"), r.getString("env_id"), r.getString("agent_id"), r.getInt("repetition"),
                                r.getString("task_id"), Attempt.Status.fromWire(r.getString("status")),
                                checksFrom(Json.parse(r.getString("checks_json"))), reward,
                                trust == null ? null : TrustTier.valueOf(trust), Evidence.parse(r.getString("evidence_json")),
                                r.getString("error"), r.getLong("started_at"), r.getLong("duration_ms")));
                    }
                }
            }
            return out;
        });
    }

    private <T> T read(SqlWork<T> work) {
        lock.lock();
        try {
            T r = work.run();
            conn.commit(); // ends the read transaction so the WAL can be checkpointed
            return r;
        } catch (SQLException e) {
            throw new StoreException(e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private static Value checksValue(List<Check> checks) {
        List<Value> l = new ArrayList<>();
        for (Check c : checks) l.add(PyList.of(Value.str(c.name()), PyBool.of(c.passed())));
        return PyList.of(l);
    }

    private static List<Check> checksFrom(Value v) {
        List<Check> out = new ArrayList<>();
        for (Value x : v.asList()) out.add(new Check(x.asList().get(0).asStr(), ((PyBool) x.asList().get(1)).value()));
        return out;
    }

    @Override public void close() {
        lock.lock();
        try {
            conn.close();
        } catch (SQLException e) {
            throw new StoreException(e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

}
