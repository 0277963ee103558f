package brokkr.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The one SQLite connection behind an {@link ExperimentStore} or an {@link ExperimentQuery}: sqlite-jdbc
 * connections are not safe to share between threads, so all access goes through it under one lock,
 * each piece of work in its own transaction.
 *
 * <p>Both sides refuse a file that is not a Brokkr store (they never turn a foreign SQLite file into
 * one) and run {@code PRAGMA quick_check} when they open, so a damaged file is reported by name
 * before anything is read from it or resumed into it. The writer also remembers the identity
 * (device and inode) of the database and its WAL files and checks it at every commit: a store deleted
 * or replaced under a running experiment would otherwise take every later commit into an unlinked
 * file and the run would end as if nothing had happened.
 */
final class StoreConnection implements AutoCloseable {
    /** SQL work that may fail with the driver's checked exception. */
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** {@code PRAGMA application_id} of a Brokkr store: "BRKR". */
    static final int APPLICATION_ID = 0x42524b52;
    /** The tables every Brokkr store has (of any schema version). */
    private static final Set<String> TABLES = Set.of("experiment", "environment_def", "agent_def", "cell", "attempt");

    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private volatile Connection conn;
    /** How a lost PostgreSQL connection is opened again (with its session set up); null for SQLite. */
    private volatile ConnectionFactory reconnect;
    /** Session state to restore on a new connection (a runner's advisory lock), in order. */
    private final List<SqlWork<?>> sessionState = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The SQLite file; null for a PostgreSQL store. */
    private final Path db;

    private final StoreLocation location;
    private final StoreDialect dialect;
    /** The files' identities the writer checks at each commit; null for a reader and for PostgreSQL. */
    private final Identity identity;

    private final ReentrantLock lock = new ReentrantLock();

    private StoreConnection(Connection conn, Path db, Identity identity) {
        this(
                conn,
                db,
                StoreLocation.of(db.getParent() == null ? Path.of(".") : db.getParent()),
                StoreDialect.SQLITE,
                identity);
    }

    StoreConnection(Connection conn, Path db, StoreLocation location, StoreDialect dialect, Identity identity) {
        this.conn = conn;
        this.db = db;
        this.location = location;
        this.dialect = dialect;
        this.identity = identity;
    }

    /** Opens the store at {@code location} for writing (see {@link #forWriting(Path)} and {@link PgStore#forWriting}). */
    static StoreConnection forWriting(StoreLocation location) {
        return switch (location) {
            case StoreLocation.Directory d -> forWriting(ExperimentStore.file(d.dir()));
            case PostgresLocation pg -> PgStore.forWriting(pg);
        };
    }

    /** Opens the store at {@code location} for reading (see {@link #forReading(Path)} and {@link PgStore#forReading}). */
    static StoreConnection forReading(StoreLocation location) {
        return switch (location) {
            case StoreLocation.Directory d -> forReading(ExperimentStore.file(d.dir()));
            case PostgresLocation pg -> PgStore.forReading(pg);
        };
    }

    /** The SQL dialect of the store. */
    StoreDialect dialect() {
        return dialect;
    }

    /** Where the store is. */
    StoreLocation location() {
        return location;
    }

    /** The store as messages name it: the SQLite file, or the PostgreSQL URL (never with a password). */
    String where() {
        return db != null ? db.toString() : location.display();
    }

    /**
     * Opens {@code db} for writing, creating it when absent: an existing file must be a Brokkr store
     * that passes {@code quick_check}; then WAL with {@code synchronous=NORMAL} (a commit survives a
     * killed process), foreign keys on, the table layout created when absent.
     */
    /** The database file; null for a PostgreSQL store. */
    Path file() {
        return db;
    }

    static StoreConnection forWriting(Path db) {
        boolean existed = Files.exists(db) && size(db) > 0;
        if (existed) checkHeader(db);
        Connection c = connect(db, "jdbc:sqlite:" + db.toAbsolutePath(), new SQLiteConfig());
        try {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
                if (existed) checkBrokkrStore(s, db, true);
                quickCheck(s, db);
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA foreign_keys=ON");
                // One transaction, so that a reader sees either an empty database or a whole Brokkr store.
                c.setAutoCommit(false);
                s.execute("PRAGMA application_id=" + APPLICATION_ID);
                s.execute("PRAGMA user_version=" + ExperimentStore.SCHEMA_VERSION);
                ExperimentStore.createTables(s, StoreDialect.SQLITE);
                StoreViews.create(s, StoreDialect.SQLITE);
            }
            c.commit();
            // The WAL files exist from here until the connection closes; SQLite never recreates them meanwhile.
            return new StoreConnection(c, db, Identity.of(db));
        } catch (SQLException | RuntimeException e) {
            close(c);
            if (e instanceof ExperimentStore.StoreException se) throw se;
            throw new ExperimentStore.StoreException("cannot open " + db + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens {@code db} read-only beside a running writer (WAL lets a reader see every committed
     * attempt without blocking it) or on a read-only directory: it creates and changes no file. With
     * no writer's WAL index ({@code -shm}) present the file is opened as immutable, so SQLite creates no
     * {@code -wal}/{@code -shm} beside it; with one, the index is mapped read-only (SQLite rebuilds a
     * killed writer's index in private memory). The file must be a Brokkr store that passes
     * {@code quick_check}.
     */
    static StoreConnection forReading(Path db) {
        checkHeader(db);
        Path wal = sibling(db, "-wal"), shm = sibling(db, "-shm");
        boolean immutable = !Files.exists(shm) && (!Files.exists(wal) || size(wal) == 0);
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.OPEN_URI);
        String uri = db.toAbsolutePath().toUri() + (immutable ? "?mode=ro&immutable=1" : "?mode=ro&readonly_shm=1");
        Connection c = connect(db, "jdbc:sqlite:" + uri, config);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("PRAGMA query_only=ON");
                checkBrokkrStore(s, db, false);
                quickCheck(s, db);
            }
            c.setAutoCommit(false);
            c.commit();
            return new StoreConnection(c, db, null);
        } catch (SQLException | RuntimeException e) {
            close(c);
            if (e instanceof ExperimentStore.StoreException || e instanceof IllegalArgumentException)
                throw (RuntimeException) e;
            throw new ExperimentStore.StoreException("cannot read " + db + ": " + e.getMessage(), e);
        }
    }

    private static Connection connect(Path db, String url, SQLiteConfig config) {
        SqliteLibrary.prepare();
        try {
            return DriverManager.getConnection(url, config.toProperties());
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException("cannot open " + db + ": " + e.getMessage(), e);
        }
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // the error that made us close matters more
        }
    }

    /** A file that is not SQLite at all is refused before SQLite sees it (its error would not name the file). */
    private static void checkHeader(Path db) {
        byte[] head = new byte[SQLITE_MAGIC.length];
        int n;
        try (InputStream in = Files.newInputStream(db)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new ExperimentStore.StoreException("cannot read " + db + ": " + e, e);
        }
        if (n < head.length || !Arrays.equals(head, SQLITE_MAGIC)) {
            throw new ExperimentStore.StoreException(
                    db + " is not a Brokkr experiment store (not an SQLite database)", null);
        }
    }

    /**
     * A Brokkr store has Brokkr's application id, or (made before the id was set) a schema version
     * and every Brokkr table. The writer also accepts an empty SQLite file, which it then initializes.
     */
    private static void checkBrokkrStore(Statement s, Path db, boolean emptyIsFine) throws SQLException {
        int version = pragma(s, "user_version");
        int app = pragma(s, "application_id");
        List<String> tables = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (r.next()) tables.add(r.getString(1));
        }
        if (tables.isEmpty() && version == 0 && app == 0) {
            if (emptyIsFine) return;
            // A runner is creating it (or it is an empty SQLite file): nothing to read either way.
            throw new IllegalArgumentException(db + " holds no experiment yet (an empty database)");
        }
        if (app != APPLICATION_ID && (app != 0 || version < 1 || !tables.containsAll(TABLES))) {
            List<String> missing =
                    TABLES.stream().filter(t -> !tables.contains(t)).sorted().toList();
            throw new ExperimentStore.StoreException(
                    db + " is not a Brokkr experiment store"
                            + (app != 0
                                    ? " (application id " + Integer.toHexString(app) + ")"
                                    : missing.isEmpty() ? "" : " (no table " + String.join(", ", missing) + ")")
                            + "; it is left as it is",
                    null);
        }
        if (version > ExperimentStore.SCHEMA_VERSION) {
            throw new ExperimentStore.StoreException(
                    db + " has schema version " + version + "; this Brokkr reads up to "
                            + ExperimentStore.SCHEMA_VERSION,
                    null);
        }
    }

    private static int pragma(Statement s, String name) throws SQLException {
        try (ResultSet r = s.executeQuery("PRAGMA " + name)) {
            return r.next() ? r.getInt(1) : 0;
        }
    }

    /** {@code PRAGMA quick_check}: b-tree structure, page and record formats, in time linear in the file. */
    private static void quickCheck(Statement s, Path db) {
        List<String> problems = new ArrayList<>();
        try (ResultSet r = s.executeQuery("PRAGMA quick_check(5)")) {
            while (r.next()) problems.add(r.getString(1));
        } catch (SQLException e) {
            problems.add(e.getMessage());
        }
        if (!problems.equals(List.of("ok"))) {
            throw new ExperimentStore.StoreException(
                    db + " is corrupt (PRAGMA quick_check: " + String.join("; ", problems)
                            + "); nothing was read from it or written to it: restore it from a copy or move it aside",
                    null);
        }
    }

    Connection connection() {
        return conn;
    }

    /**
     * Fails when the store this writer opened is no longer the file at its path (deleted, or replaced
     * by another file): what it commits from then on would be lost with the unlinked file.
     */
    void checkIdentity() {
        if (identity != null) identity.verify(db);
    }

    /** Opens a new connection to the same store, its session set up as the first one's. */
    interface ConnectionFactory {
        Connection open();
    }

    /**
     * A PostgreSQL store's connection survives the server's restart or a dropped link: when a transaction fails
     * because the connection is gone (SQLSTATE class 08, or 57P01-57P03: the server shutting down or starting), a
     * new one is opened with {@code factory} (retrying for up to {@code brokkr.pg.reconnect.seconds}, default 300),
     * the {@link #restoreOnReconnect session state} is restored and the transaction runs again from its start.
     * A commit whose answer was lost is not run again (whether it was kept is unknown): it fails as a store error,
     * and a resume sees what was kept.
     */
    void reconnectWith(ConnectionFactory factory) {
        this.reconnect = factory;
    }

    /** Session state {@code work} sets up again on each new connection (it fails the transaction when it cannot). */
    void restoreOnReconnect(SqlWork<?> work) {
        sessionState.add(work);
    }

    private static final System.Logger LOG = System.getLogger("brokkr.experiment");

    /**
     * A driver's error as a message: PostgreSQL's driver names a failed batch's statement with its parameters
     * ("Batch entry 0 INSERT ... was aborted"), which would put an attempt's texts into an error message; the
     * server's own reason is given instead.
     */
    static String message(SQLException e) {
        if (e instanceof java.sql.BatchUpdateException && e.getNextException() != null)
            return message(e.getNextException());
        String m = String.valueOf(e.getMessage());
        return m.startsWith("Batch entry ") ? "a batch failed (SQLSTATE " + e.getSQLState() + ")" : m;
    }

    /** Whether {@code e} says the connection itself is gone (not the statement's fault). */
    private boolean lost(SQLException e) {
        if (reconnect == null) return false;
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"))
            return true;
        try {
            return conn.isClosed() || !conn.isValid(5);
        } catch (SQLException other) {
            return true;
        }
    }

    /** Opens a new connection and restores the session, retrying until the deadline; the last failure when it passes. */
    private void reopen(SQLException why) {
        long seconds = Long.getLong("brokkr.pg.reconnect.seconds", 300);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        LOG.log(System.Logger.Level.WARNING, "lost the connection to {0} ({1}); reconnecting", where(), message(why));
        try {
            conn.close();
        } catch (SQLException ignored) {
            // it is gone
        }
        long wait = 200;
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                Connection c = reconnect.open();
                conn = c;
                try {
                    for (SqlWork<?> w : sessionState) w.run();
                    c.commit();
                } catch (SQLException e) {
                    throw new ExperimentStore.StoreException(where() + ": " + message(e), e);
                }
                return;
            } catch (ExperimentStore.StoreException e) {
                last = e;
            }
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            wait = Math.min(wait * 2, 5000);
        }
        throw new ExperimentStore.StoreException(
                "lost the connection to " + where() + " and could not reconnect within " + seconds + " s"
                        + (last == null ? "" : ": " + last.getMessage()),
                why);
    }

    /** Runs {@code work} as one transaction, adding the time it held the connection to {@code held} (when given). */
    <T> T tx(AtomicLong held, SqlWork<T> work) {
        lock.lock();
        long t0 = System.nanoTime();
        try {
            while (true) {
                try {
                    T r = work.run();
                    checkIdentity();
                    try {
                        conn.commit();
                    } catch (SQLException e) {
                        if (!lost(e)) throw e;
                        reopen(e);
                        throw new ExperimentStore.StoreException(
                                "the connection to " + where() + " was lost while committing; whether that transaction"
                                        + " was kept is unknown (a resume sees what was): " + message(e),
                                e);
                    }
                    if (held != null) held.addAndGet(System.nanoTime() - t0);
                    return r;
                } catch (SQLException e) {
                    rollback();
                    if (lost(e)) {
                        reopen(e);
                        continue;
                    }
                    throw new ExperimentStore.StoreException(message(e), e);
                } catch (RuntimeException | Error e) {
                    // An Error too (an OutOfMemoryError while binding a huge attempt): the next transaction must not
                    // commit this one's half.
                    rollback();
                    throw e;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void rollback() {
        try {
            conn.rollback();
        } catch (SQLException ignored) {
            // the original error matters
        }
    }

    /** Runs reads; the commit ends the read transaction so that the WAL can be checkpointed. */
    <T> T read(SqlWork<T> work) {
        lock.lock();
        try {
            while (true) {
                try {
                    T r = work.run();
                    conn.commit();
                    return r;
                } catch (SQLException e) {
                    rollback();
                    if (lost(e)) {
                        reopen(e);
                        continue; // a read is run again whole
                    }
                    throw new ExperimentStore.StoreException(message(e), e);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            conn.close();
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(message(e), e);
        } finally {
            lock.unlock();
        }
    }

    static Path sibling(Path db, String suffix) {
        return db.resolveSibling(db.getFileName() + suffix);
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Which files the store is: the database's and its WAL files' keys (device and inode on Unix). */
    record Identity(Object db, Object wal, Object shm) {
        static Identity of(Path db) {
            return new Identity(key(db), key(sibling(db, "-wal")), key(sibling(db, "-shm")));
        }

        /** The file's key, or its creation time where the file system has no keys; null when absent. */
        private static Object key(Path p) {
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                return a.fileKey() != null ? a.fileKey() : a.creationTime();
            } catch (NoSuchFileException e) {
                return null;
            } catch (IOException e) {
                return "unreadable: " + e.getMessage();
            }
        }

        void verify(Path path) {
            Identity now = of(path);
            List<String> gone = new ArrayList<>();
            if (!Objects.equals(db, now.db)) gone.add(path.getFileName().toString());
            if (wal != null && !Objects.equals(wal, now.wal)) gone.add(path.getFileName() + "-wal");
            if (shm != null && !Objects.equals(shm, now.shm)) gone.add(path.getFileName() + "-shm");
            if (!gone.isEmpty()) {
                throw new ExperimentStore.StoreException(
                        path + ": the store was deleted or replaced while this run was writing to it ("
                                + String.join(", ", gone) + (now.db == null ? " gone" : " not the file this run opened")
                                + "); what this run committed is lost with it, and nothing more is written",
                        null);
            }
        }
    }
}
