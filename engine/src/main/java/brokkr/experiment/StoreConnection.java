package brokkr.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one SQLite connection behind an {@link ExperimentStore} or an {@link ExperimentQuery}: sqlite-jdbc
 * connections are not safe to share between threads, so all access goes through it under one lock,
 * each piece of work in its own transaction.
 */
final class StoreConnection implements AutoCloseable {
    /** SQL work that may fail with the driver's checked exception. */
    interface SqlWork<T> { T run() throws SQLException; }

    private final Connection conn;
    private final ReentrantLock lock = new ReentrantLock();

    private StoreConnection(Connection conn) { this.conn = conn; }

    /**
     * Opens {@code db} for writing: WAL with {@code synchronous=NORMAL} (a commit survives a killed
     * process), foreign keys on, the table layout created when absent.
     */
    static StoreConnection forWriting(Path db) {
        return open(db, c -> {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute("PRAGMA foreign_keys=ON");
                s.execute("PRAGMA busy_timeout=10000");
                checkVersion(s, db);
                s.execute("PRAGMA user_version=" + ExperimentStore.SCHEMA_VERSION);
                ExperimentStore.createTables(s);
            }
        });
    }

    /**
     * Opens {@code db} for reading beside a running writer (WAL lets readers see every committed
     * attempt without blocking it). {@code query_only} makes any write an error; unlike a read-only
     * open it still lets SQLite recover the WAL index a killed writer left behind.
     */
    static StoreConnection forReading(Path db) {
        return open(db, c -> {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("PRAGMA query_only=ON");
                checkVersion(s, db);
            }
        });
    }

    private interface Setup { void apply(Connection c) throws SQLException; }

    private static StoreConnection open(Path db, Setup setup) {
        try {
            SqliteLibrary.prepare();
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
            try {
                setup.apply(c);
                c.setAutoCommit(false);
                c.commit();
                return new StoreConnection(c);
            } catch (SQLException | RuntimeException ex) {
                c.close();
                throw ex;
            }
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException("cannot open " + db, e);
        }
    }

    private static void checkVersion(Statement s, Path db) throws SQLException {
        try (ResultSet v = s.executeQuery("PRAGMA user_version")) {
            int version = v.next() ? v.getInt(1) : 0;
            if (version > ExperimentStore.SCHEMA_VERSION) {
                throw new ExperimentStore.StoreException(db + " has schema version " + version + "; this Brokkr reads up to "
                        + ExperimentStore.SCHEMA_VERSION, null);
            }
        }
    }

    Connection connection() { return conn; }

    /** Runs {@code work} as one transaction, adding the time it held the connection to {@code held} (when given). */
    <T> T tx(AtomicLong held, SqlWork<T> work) {
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
                if (e instanceof SQLException se) throw new ExperimentStore.StoreException(se.getMessage(), se);
                throw (RuntimeException) e;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Runs reads; the commit ends the read transaction so that the WAL can be checkpointed. */
    <T> T read(SqlWork<T> work) {
        lock.lock();
        try {
            T r = work.run();
            conn.commit();
            return r;
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override public void close() {
        lock.lock();
        try {
            conn.close();
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }
}
