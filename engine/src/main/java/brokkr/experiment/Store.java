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
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * Each attempt is committed in one transaction as soon as it finishes (the runner's single writer
 * groups the attempts that finished during the previous commit into the next one), so a killed
 * process loses at most the attempts still running or being committed; the partial unique index
 * {@code one_completed_attempt} makes a second completed attempt of a cell impossible. SQLite has one
 * writer: all access goes through one connection under a lock.
 *
 * <p>Cells are keyed by content: (environment id, agent id, repetition). A run marks the cells of its
 * spec active; cells of changed definitions stay in the store, inactive, with their attempts.
 */
public final class Store implements AutoCloseable {
    public static final String FILE = "experiment.db";
    /** The table layout's version ({@code PRAGMA user_version}); a store of a newer layout is refused. */
    public static final int SCHEMA_VERSION = 1;

    /** A cell's identity. */
    public record CellKey(String environmentId, String agentId, int repetition) {}

    /** A cell of the experiment: its key, candidate label, benchmark and task, and whether the current spec has it. */
    public record Cell(CellKey key, String candidate, String benchmark, String taskId, boolean active) {}

    /** What the store knows about a cell's attempts, for resuming. */
    public record CellState(int completed, int infrastructureFailures) {}

    private final Connection conn;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicLong serializeNanos = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong commitNanos = new AtomicLong();

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

    /**
     * Opens the store for running: also takes the directory's run lock ({@code run.lock}), so that two
     * runners never evaluate the same cells at once. The lock is the operating system's, so a killed
     * runner leaves none behind. IllegalStateException when another runner holds it.
     */
    public static Store openForRun(Path dir) {
        try {
            Files.createDirectories(dir);
            FileChannel ch = FileChannel.open(dir.resolve("run.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (java.nio.channels.OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                ch.close();
                throw new IllegalStateException(dir + " is being run by another process (run.lock is held)");
            }
            Store s = connect(file(dir));
            s.runLock = ch;
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private FileChannel runLock;

    /** Opens an existing store; IllegalArgumentException when {@code dir} holds none. */
    public static Store openExisting(Path dir) {
        if (!Files.isRegularFile(file(dir))) throw new IllegalArgumentException(dir + " holds no experiment (no " + FILE + ")");
        return connect(file(dir));
    }

    private static Store connect(Path db) {
        SqliteLibrary.prepare();
        try {
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
            try {
                return new Store(init(c, db));
            } catch (SQLException | RuntimeException ex) {
                c.close();
                throw ex;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot open " + db, e);
        }
    }

    private static Connection init(Connection c, Path db) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=NORMAL");
            s.execute("PRAGMA foreign_keys=ON");
            s.execute("PRAGMA busy_timeout=10000");
            try (ResultSet v = s.executeQuery("PRAGMA user_version")) {
                int version = v.next() ? v.getInt(1) : 0;
                if (version > SCHEMA_VERSION) {
                    throw new StoreException(db + " has schema version " + version + "; this Brokkr reads up to " + SCHEMA_VERSION, null);
                }
            }
            s.execute("PRAGMA user_version=" + SCHEMA_VERSION);
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
        return c;
    }

    /** A store error (I/O, corruption): fatal for a run, never an attempt's outcome. */
    public static final class StoreException extends RuntimeException {
        public StoreException(String message, Throwable cause) { super(message, cause); }
    }

    private interface SqlWork<T> { T run() throws SQLException; }

    /** Runs {@code work} as one transaction under the writer lock. */
    private <T> T tx(SqlWork<T> work) { return tx(null, work); }

    /** Runs {@code work} as one transaction, adding the time it held the writer to {@code held}. */
    private <T> T tx(AtomicLong held, SqlWork<T> work) {
        lock.lock();
        long t0 = System.nanoTime();
        try {
            try {
                T r = work.run();
                conn.commit();
                if (held != null) held.addAndGet(System.nanoTime() - t0);
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

    /** An attempt with its JSON already rendered, so serialization happens off the writer. */
    public record Prepared(Attempt attempt, String checksJson, String evidenceJson, long serializeNanos) {}

    /** Renders an attempt's JSON; thread-safe and lock-free, meant for the thread that produced the attempt. */
    public static Prepared prepare(Attempt a) {
        long t0 = System.nanoTime();
        String checks = PyJson.dumps(checksValue(a.checks()), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
        String evidence = PyJson.dumps(a.evidence().toValue(), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
        return new Prepared(a, checks, evidence, System.nanoTime() - t0);
    }

    /** Commits one finished attempt in its own transaction and returns it with its id. */
    public Attempt record(Attempt a) { return recordAll(List.of(prepare(a))).getFirst(); }

    /**
     * Commits finished attempts in one transaction (a group commit: the runner's writer takes every
     * attempt that finished while the previous commit ran). An attempt is never split across
     * transactions; a crash loses at most the attempts of the commit in progress, which resume re-runs.
     */
    public List<Attempt> recordAll(List<Prepared> batch) {
        if (batch.isEmpty()) return List.of();
        List<Long> ids = tx(commitNanos, () -> {
            List<Long> out = new ArrayList<>();
            try (PreparedStatement p = conn.prepareStatement("""
                    INSERT INTO attempt(env_id, agent_id, repetition, task_id, status, reward, trust, checks_json,
                      evidence_json, error, started_at, duration_ms, input_tokens, output_tokens)
                    VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)""", Statement.RETURN_GENERATED_KEYS)) {
                for (Prepared x : batch) {
                    Attempt a = x.attempt();
                    p.setString(1, a.environmentId());
                    p.setString(2, a.agentId());
                    p.setInt(3, a.repetition());
                    p.setString(4, a.taskId());
                    p.setString(5, a.status().wire());
                    if (a.completed()) p.setDouble(6, a.reward()); else p.setNull(6, Types.REAL);
                    p.setString(7, a.trust() == null ? null : a.trust().name());
                    p.setString(8, x.checksJson());
                    p.setString(9, x.evidenceJson());
                    p.setString(10, a.error());
                    p.setLong(11, a.startedAtMillis());
                    p.setLong(12, a.durationMillis());
                    p.setLong(13, a.evidence().agentUsage().inputTokens());
                    p.setLong(14, a.evidence().agentUsage().outputTokens());
                    p.executeUpdate();
                    try (ResultSet k = p.getGeneratedKeys()) {
                        k.next();
                        out.add(k.getLong(1));
                    }
                }
            }
            return out;
        });
        List<Attempt> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            out.add(batch.get(i).attempt().withId(ids.get(i)));
            serializeNanos.addAndGet(batch.get(i).serializeNanos());
        }
        writes.addAndGet(batch.size());
        commits.incrementAndGet();
        return out;
    }

    /** Attempts recorded through this store object. */
    public long writes() { return writes.get(); }
    /** Transactions that recorded them (fewer than attempts when commits were grouped). */
    public long commits() { return commits.get(); }
    /** Mean time to render one attempt's JSON (done in parallel, on the cells' threads). */
    public double meanSerializeMillis() { long n = writes.get(); return n == 0 ? 0 : serializeNanos.get() / 1e6 / n; }
    /** Mean time the writer was held per attempt: inserts plus its share of the commit. */
    public double meanCommitMillis() { long n = writes.get(); return n == 0 ? 0 : commitNanos.get() / 1e6 / n; }

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
    public List<Attempt> attempts(boolean activeOnly) { return attempts(activeOnly, true); }

    /**
     * Attempts as {@link #attempts(boolean)}; without {@code evidence} the evidence JSON is not read and
     * each attempt's evidence holds only the candidate's usage (what scoring needs, much cheaper).
     */
    public List<Attempt> attempts(boolean activeOnly, boolean evidence) {
        String where = activeOnly ? " JOIN cell c ON c.env_id = a.env_id AND c.agent_id = a.agent_id AND c.repetition = a.repetition WHERE c.active = 1" : "";
        return queryAttempts("SELECT " + (evidence ? "a.*" : LIGHT_COLUMNS) + " FROM attempt a" + where + " ORDER BY a.id", null, evidence);
    }

    private static final String LIGHT_COLUMNS = "a.id, a.env_id, a.agent_id, a.repetition, a.task_id, a.status, a.reward, a.trust, "
            + "a.checks_json, a.error, a.started_at, a.duration_ms, a.input_tokens, a.output_tokens";

    public Optional<Attempt> attempt(long id) {
        List<Attempt> l = queryAttempts("SELECT a.* FROM attempt a WHERE a.id = ?", id, true);
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

    private List<Attempt> queryAttempts(String sql, Long param, boolean withEvidence) {
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
                                trust == null ? null : TrustTier.valueOf(trust), withEvidence ? Evidence.parse(r.getString("evidence_json"))
                                        : usageOnly(r.getLong("input_tokens"), r.getLong("output_tokens")),
                                r.getString("error"), r.getLong("started_at"), r.getLong("duration_ms")));
                    }
                }
            }
            return out;
        });
    }

    private static Evidence usageOnly(long in, long out) {
        return new Evidence(null, null, null, null, null, List.of(), Map.of(Evidence.AGENT, new brokkr.conversation.Usage(in, out)), null, null);
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
            if (runLock != null) {
                try {
                    runLock.close(); // releases the run lock
                } catch (IOException ignored) {
                    // the lock dies with the channel or the process either way
                }
            }
        }
    }

}
