package brokkr.experiment;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.eval.ContentHash;
import brokkr.eval.EnvironmentDef;
import brokkr.provider.EnvironmentKeys;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write side of an experiment directory's embedded store: one SQLite database ({@code experiment.db},
 * WAL, {@code synchronous=NORMAL}) with the experiment, its definitions, its cells and every attempt.
 * Each attempt is committed in one transaction as soon as it finishes (the runner's single writer
 * groups the attempts that finished during the previous commit into the next one), so a killed
 * process loses at most the attempts still running or being committed; the partial unique index
 * {@code one_completed_attempt} makes a second completed attempt of a cell impossible. SQLite has one
 * writer: all access goes through one connection under a lock. What is stored is read through
 * {@link ExperimentQuery}: {@link #query()} on this connection, {@link ExperimentQuery#open} beside it.
 *
 * <p>Cells are keyed by content: (environment id, agent id, repetition). A run marks the cells of its
 * spec active; cells of changed definitions stay in the store, inactive, with their attempts.
 */
public final class ExperimentStore implements AutoCloseable {
    public static final String FILE = "experiment.db";
    /**
     * The table layout's version ({@code PRAGMA user_version}); a store of a newer layout is refused.
     * 2: long texts of evidence are kept once in {@code blob} ({@link EvidenceCodec}); a version-1
     * store is read as it is and upgraded when a run opens it (its attempts stay whole).
     * 3: SQL views for other tools ({@code attempts_v}, {@code checks_v}, {@code cells_v}, ...,
     * {@link StoreViews}), created by the writer only; the tables are those of version 2, so a
     * version-1 or -2 store is read as it is (without views) and gets them when a run opens it.
     */
    public static final int SCHEMA_VERSION = 3;

    /** A cell's identity. */
    public record CellKey(String environmentId, String agentId, int repetition) {}

    /** A cell of the experiment: its key, candidate label, benchmark and task, and whether the current spec has it. */
    public record Cell(CellKey key, String candidate, String benchmark, String taskId, boolean active) {}

    /** What the store knows about a cell's attempts, for resuming. */
    public record CellState(int completed, int infrastructureFailures) {}

    private final StoreConnection db;
    /** The run lock released at close: a directory's {@code run.lock} channel, or nothing (PostgreSQL's is the session's). */
    private final AutoCloseable runLock;

    private final ExperimentQuery query;
    private final AtomicLong serializeNanos = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong commitNanos = new AtomicLong();

    ExperimentStore(StoreConnection db, AutoCloseable runLock) {
        this.db = db;
        this.runLock = runLock;
        this.query = new ExperimentQuery(db, false);
    }

    public static Path file(Path dir) {
        return dir.resolve(FILE);
    }

    /**
     * Opens (creating when absent) the store of an experiment directory for running, taking the
     * directory's run lock ({@code run.lock}) so that two runners never evaluate the same cells at once.
     * The lock is the operating system's, so a killed runner leaves none behind. IllegalStateException
     * when another runner holds it.
     */
    /**
     * Transcripts are private data: a new store file is created readable by its owner only (0600), before
     * SQLite opens it; SQLite gives its -wal and -shm files the database file's permissions.
     */
    static void createOwnerOnly(Path db) throws IOException {
        if (Files.exists(db)
                || !db.getFileSystem().supportedFileAttributeViews().contains("posix")) return;
        try {
            Files.createFile(db, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            // another opener made it first: its permissions stand
        }
    }

    /**
     * Opens (creating when absent) the store at {@code location} for running, holding its run lock: a directory's
     * as {@link #openForRun(Path)}; a PostgreSQL store's is a session-level advisory lock on the store's schema
     * (released when this store closes or its connection is lost), IllegalStateException when another runner
     * holds it.
     */
    public static ExperimentStore openForRun(StoreLocation location) {
        return switch (location) {
            case StoreLocation.Directory d -> openForRun(d.dir());
            case PostgresLocation pg -> {
                StoreConnection c = StoreConnection.forWriting(pg);
                try {
                    StoreConnection.SqlWork<Boolean> takeLock = () -> tryRunLock(c.connection(), pg, false);
                    boolean locked = c.tx(null, takeLock);
                    // A new connection after a lost one takes the run lock again, or the run stops.
                    c.restoreOnReconnect(() -> {
                        if (!takeLock.run())
                            throw new IllegalStateException(pg.display() + ": another process took the run lock while"
                                    + " this run's connection was lost; this run stops");
                        return true;
                    });
                    if (!locked)
                        throw new IllegalStateException(pg.display() + " is being run by another process or by workers"
                                + " (its run lock, a PostgreSQL advisory lock, is held)");
                    yield new ExperimentStore(c, null);
                } catch (RuntimeException e) {
                    c.close();
                    throw e;
                }
            }
        };
    }

    /**
     * Tries a PostgreSQL store's run lock on {@code c}'s session: exclusive for a one-process run, shared for a
     * fleet's workers (each of their connections), so a one-process run and workers never write one store at once
     * (they would both run its cells), while any number of workers share it.
     */
    static boolean tryRunLock(Connection c, PostgresLocation pg, boolean shared) throws SQLException {
        String fn = shared ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock";
        try (PreparedStatement p = c.prepareStatement("SELECT " + fn + "(hashtext('brokkr run ' || ?))")) {
            p.setString(1, pg.database() + "." + pg.schema());
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getBoolean(1);
            }
        }
    }

    /**
     * Opens (creating when absent) a PostgreSQL store for writing beside other writers, without the run lock: what
     * a fleet's workers and the process registering their cells use, each claiming cells rather than owning the
     * store. The writes are those of {@link #openForRun} (one transaction per {@link #recordAll}, the partial unique
     * index allowing one completed attempt per cell); a lost connection is reopened as there. An SQLite store has
     * one writer at a time: IllegalArgumentException.
     */
    public static ExperimentStore openShared(StoreLocation location) {
        if (!(location instanceof PostgresLocation pg))
            throw new IllegalArgumentException(location.display()
                    + " is an experiment directory (SQLite, one writer at a time): workers need a PostgreSQL store"
                    + " (postgresql://HOST[:PORT]/DB[?schema=S])");
        return new ExperimentStore(StoreConnection.forWriting(pg), null);
    }

    public static ExperimentStore openForRun(Path dir) {
        try {
            Files.createDirectories(dir);
            FileChannel ch =
                    FileChannel.open(dir.resolve("run.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                ch.close();
                throw new IllegalStateException(dir + " is being run by another process (run.lock is held)");
            }
            try {
                createOwnerOnly(file(dir));
                return new ExperimentStore(StoreConnection.forWriting(file(dir)), ch);
            } catch (RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads what this store holds, through its own connection (closing the query leaves the store open). */
    public ExperimentQuery query() {
        return query;
    }

    /** The writer's connection, for tables kept beside the attempts by other parts of this package ({@link Regrade}). */
    StoreConnection connection() {
        return db;
    }

    /** The table layout, created when absent (on the writer's connection, before its first transaction). */
    static void createTables(Statement s, StoreDialect d) throws SQLException {
        s.execute(d.ddl("""
                CREATE TABLE IF NOT EXISTS experiment(
                  name TEXT PRIMARY KEY, spec_json TEXT NOT NULL, updated_at ${BIGINT} NOT NULL)"""));
        s.execute(d.ddl("""
                CREATE TABLE IF NOT EXISTS environment_def(
                  id TEXT PRIMARY KEY, benchmark TEXT NOT NULL, task_id TEXT NOT NULL, json TEXT NOT NULL)"""));
        s.execute("CREATE TABLE IF NOT EXISTS agent_def(id TEXT PRIMARY KEY, json TEXT NOT NULL)");
        s.execute(d.ddl("""
                CREATE TABLE IF NOT EXISTS cell(
                  env_id TEXT NOT NULL REFERENCES environment_def(id),
                  agent_id TEXT NOT NULL REFERENCES agent_def(id),
                  repetition INTEGER NOT NULL,
                  candidate TEXT NOT NULL, benchmark TEXT NOT NULL, task_id TEXT NOT NULL,
                  ordinal INTEGER NOT NULL, active INTEGER NOT NULL,
                  PRIMARY KEY(env_id, agent_id, repetition))"""));
        s.execute(d.ddl("""
                CREATE TABLE IF NOT EXISTS attempt(
                  id ${ID},
                  env_id TEXT NOT NULL, agent_id TEXT NOT NULL, repetition INTEGER NOT NULL,
                  task_id TEXT NOT NULL, status TEXT NOT NULL, reward ${REAL}, trust TEXT,
                  checks_json TEXT NOT NULL, evidence_json TEXT NOT NULL, error TEXT,
                  started_at ${BIGINT} NOT NULL, duration_ms ${BIGINT} NOT NULL,
                  input_tokens ${BIGINT} NOT NULL, output_tokens ${BIGINT} NOT NULL,
                  FOREIGN KEY(env_id, agent_id, repetition) REFERENCES cell(env_id, agent_id, repetition))"""));
        s.execute("CREATE INDEX IF NOT EXISTS attempt_cell ON attempt(env_id, agent_id, repetition)");
        s.execute(d.ddl(
                "CREATE TABLE IF NOT EXISTS blob(sha256 TEXT PRIMARY KEY, text ${ANY_TEXT} NOT NULL)${WITHOUT_ROWID}"));
        s.execute(d.ddl("""
                CREATE UNIQUE INDEX IF NOT EXISTS one_completed_attempt
                  ON attempt(env_id, agent_id, repetition) WHERE status = 'completed'"""));
        ProbeStore.createTable(s, d);
    }

    /** A store error (I/O, corruption): fatal for a run, never an attempt's outcome. */
    public static class StoreException extends RuntimeException {
        public StoreException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Records the experiment's current spec, its definitions and cells in one transaction: new cells are
     * inserted, every cell of the spec is marked active and every other cell inactive.
     */
    public void register(
            String name,
            String specJson,
            Collection<EnvironmentDef> envs,
            Collection<AgentDef> agents,
            List<Cell> cells) {
        db.tx(null, () -> {
            try (PreparedStatement e = db.connection()
                            .prepareStatement(
                                    "INSERT INTO experiment(name, spec_json, updated_at) VALUES(?,?,?) "
                                            + "ON CONFLICT(name) DO UPDATE SET spec_json = excluded.spec_json, updated_at = excluded.updated_at");
                    PreparedStatement env = db.connection()
                            .prepareStatement(
                                    "INSERT INTO environment_def(id, benchmark, task_id, json) VALUES(?,?,?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement ag = db.connection()
                            .prepareStatement("INSERT INTO agent_def(id, json) VALUES(?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement cell = db.connection().prepareStatement("""
                         INSERT INTO cell(env_id, agent_id, repetition, candidate, benchmark, task_id, ordinal, active)
                         VALUES(?,?,?,?,?,?,?,1)
                         ON CONFLICT(env_id, agent_id, repetition) DO UPDATE SET
                           candidate = excluded.candidate, ordinal = excluded.ordinal, active = 1""");
                    Statement s = db.connection().createStatement()) {
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

    /**
     * Adds definitions and cells beside the experiment's, in one transaction, changing no other cell
     * (unlike {@link #register}): the cells of stored branches ({@link StoredBranches}). The cells come
     * after every existing one and are active; a later {@link #register} of the experiment's spec makes
     * them inactive like any cell not in it (their attempts stay, listed with {@code attempts --all}).
     */
    public void addCells(Collection<EnvironmentDef> envs, Collection<AgentDef> agents, List<Cell> cells) {
        db.tx(null, () -> {
            try (PreparedStatement env = db.connection()
                            .prepareStatement(
                                    "INSERT INTO environment_def(id, benchmark, task_id, json) VALUES(?,?,?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement ag = db.connection()
                            .prepareStatement("INSERT INTO agent_def(id, json) VALUES(?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement cell = db.connection().prepareStatement("""
                         INSERT INTO cell(env_id, agent_id, repetition, candidate, benchmark, task_id, ordinal, active)
                         VALUES(?,?,?,?,?,?,(SELECT COALESCE(MAX(ordinal), -1) + 1 FROM cell),1)
                         ON CONFLICT(env_id, agent_id, repetition) DO UPDATE SET candidate = excluded.candidate, active = 1""")) {
                for (EnvironmentDef d : envs) {
                    env.setString(1, d.id());
                    env.setString(2, d.benchmark());
                    env.setString(3, d.taskId());
                    env.setString(4, ContentHash.canonicalJson(d.toValue()));
                    env.executeUpdate();
                }
                for (AgentDef a : agents) {
                    ag.setString(1, a.id());
                    ag.setString(2, ContentHash.canonicalJson(a.toValue()));
                    ag.executeUpdate();
                }
                for (Cell c : cells) {
                    cell.setString(1, c.key().environmentId());
                    cell.setString(2, c.key().agentId());
                    cell.setInt(3, c.key().repetition());
                    cell.setString(4, c.candidate());
                    cell.setString(5, c.benchmark());
                    cell.setString(6, c.taskId());
                    cell.executeUpdate();
                }
            }
            return null;
        });
    }

    /**
     * An attempt with its JSON already rendered, so serialization happens off the writer: the evidence
     * with its long texts replaced by references, and those texts by sha256 ({@link EvidenceCodec}).
     */
    public record Prepared(
            Attempt attempt, String checksJson, String evidenceJson, Map<String, String> blobs, long serializeNanos) {}

    /** Renders an attempt's JSON; thread-safe and lock-free, meant for the thread that produced the attempt. */
    public static Prepared prepare(Attempt a) {
        long t0 = System.nanoTime();
        String checks = PyJson.dumps(
                EnvironmentKeys.process().redact(checksValue(a.checks())),
                PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
        EvidenceCodec.Encoded evidence = EvidenceCodec.encode(a.evidence());
        return new Prepared(a, checks, evidence.json(), evidence.blobs(), System.nanoTime() - t0);
    }

    /** Commits one finished attempt in its own transaction and returns it with its id. */
    public Attempt record(Attempt a) {
        return recordAll(List.of(prepare(a))).getFirst();
    }

    /**
     * Commits finished attempts in one transaction (a group commit: the runner's writer takes every
     * attempt that finished while the previous commit ran). An attempt is never split across
     * transactions; a crash loses at most the attempts of the commit in progress, which resume re-runs.
     */
    public List<Attempt> recordAll(List<Prepared> batch) {
        if (batch.isEmpty()) return List.of();
        List<Long> ids = db.tx(commitNanos, () -> insertAttempts(db.connection(), db.dialect(), batch));
        List<Attempt> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            out.add(batch.get(i).attempt().withId(ids.get(i)));
            serializeNanos.addAndGet(batch.get(i).serializeNanos());
        }
        writes.addAndGet(batch.size());
        commits.incrementAndGet();
        return out;
    }

    /**
     * Inserts finished attempts and their long texts on {@code c}, in the caller's transaction (no commit):
     * {@link #recordAll}'s writer, and a fleet worker's record under its lease ({@link FleetQueue#record}).
     */
    static List<Long> insertAttempts(java.sql.Connection c, StoreDialect dialect, List<Prepared> batch)
            throws SQLException {
        List<Long> out = new ArrayList<>();
        try (PreparedStatement b =
                c.prepareStatement("INSERT INTO blob(sha256, text) VALUES(?,?) ON CONFLICT DO NOTHING")) {
            for (Prepared x : batch) {
                for (var e : x.blobs().entrySet()) {
                    b.setString(1, e.getKey());
                    dialect.setAnyText(b, 2, e.getValue());
                    b.addBatch();
                }
            }
            b.executeBatch();
        }
        try (PreparedStatement p = c.prepareStatement("""
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
                if (a.completed()) p.setDouble(6, a.reward());
                else p.setNull(6, Types.REAL);
                p.setString(7, a.trust() == null ? null : a.trust().name());
                p.setString(8, x.checksJson());
                p.setString(9, x.evidenceJson());
                p.setString(10, EnvironmentKeys.process().redact(a.error()));
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
    }

    /** Stores a probe's outcome as a diagnostic probe record (table {@code probe}), never as an attempt. */
    public ProbeStore.ProbeRecord recordProbe(ProbeResult probe) {
        return ProbeStore.insert(db, List.of(probe), null, null).getFirst();
    }

    /** Stores a comparison's two probes as diagnostic probe records sharing one comparison id and its p-value. */
    public List<ProbeStore.ProbeRecord> recordComparison(Probes.Comparison c) {
        String id = UUID.randomUUID().toString();
        return ProbeStore.insert(
                db, List.of(c.first(), c.second()), id, c.test().pValue());
    }

    /** Where this store is. */
    public StoreLocation location() {
        return db.location();
    }

    /**
     * Fails with a {@link StoreException} when the file this store opened was deleted or replaced since
     * (it is also checked before every commit): a run must not report what it could not keep.
     */
    public void checkFile() {
        db.checkIdentity();
    }

    /** Attempts recorded through this store object. */
    public long writes() {
        return writes.get();
    }
    /** Transactions that recorded them (fewer than attempts when commits were grouped). */
    public long commits() {
        return commits.get();
    }
    /** Mean time to render one attempt's JSON (done in parallel, on the cells' threads). */
    public double meanSerializeMillis() {
        long n = writes.get();
        return n == 0 ? 0 : serializeNanos.get() / 1e6 / n;
    }
    /** Mean time the writer was held per attempt: inserts plus its share of the commit. */
    public double meanCommitMillis() {
        long n = writes.get();
        return n == 0 ? 0 : commitNanos.get() / 1e6 / n;
    }

    private static Value checksValue(List<Check> checks) {
        List<Value> l = new ArrayList<>();
        for (Check c : checks) l.add(PyList.of(Value.str(c.name()), PyBool.of(c.passed())));
        return PyList.of(l);
    }

    /** Closes the connection, then releases the run lock. */
    @Override
    public void close() {
        try {
            db.close();
        } finally {
            try {
                if (runLock != null) runLock.close(); // releases the run lock
            } catch (Exception ignored) {
                // the lock dies with the channel or the process either way
            }
        }
    }
}
