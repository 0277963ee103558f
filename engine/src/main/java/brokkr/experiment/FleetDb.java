package brokkr.experiment;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A fleet process's one connection to the PostgreSQL store, which outlives the server's restarts: a
 * transaction that fails because the connection was lost (the server stopped, restarted, or the
 * network dropped) is run again on a new connection, waiting with backoff for up to {@code wait}
 * (then it is a {@link ExperimentStore.StoreException}). Every piece of work given to {@link #tx} must
 * therefore be safe to run twice, including after a commit whose answer was lost: the queue's record
 * is ({@link FleetQueue#record}: the lease remembers the epoch it recorded).
 */
final class FleetDb implements AutoCloseable {
    /** SQL work on the connection, in one transaction. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final Supplier<Connection> connect;
    private final Duration wait;
    private final PrintStream log;
    private Connection conn;
    /** Times a lost connection was opened again. */
    private long reconnects;
    /** Time spent in transactions that committed (the store's cost, not the waits for it). */
    private long busyNanos;

    FleetDb(Supplier<Connection> connect, Duration wait, PrintStream log) {
        this.connect = connect;
        this.wait = wait;
        this.log = log;
    }

    synchronized long reconnects() {
        return reconnects;
    }

    /** Milliseconds spent in committed transactions so far. */
    synchronized double busyMillis() {
        return busyNanos / 1e6;
    }

    /** Runs {@code work} as one transaction, again on a new connection while the server is unreachable. */
    synchronized <T> T tx(Work<T> work) {
        long deadline = System.nanoTime() + wait.toNanos();
        long backoff = 100;
        boolean reported = false;
        while (true) {
            try {
                if (conn == null) {
                    conn = connect.get();
                    conn.setAutoCommit(false);
                    if (reported) {
                        reconnects++;
                        log.println("brokkr fleet: the store is reachable again; going on");
                    }
                }
                long t0 = System.nanoTime();
                T r = work.run(conn);
                conn.commit();
                busyNanos += System.nanoTime() - t0;
                return r;
            } catch (SQLException | ExperimentStore.StoreException e) {
                SQLException sql = sqlCause(e);
                rollbackQuietly();
                if (sql == null || !transientFailure(sql)) {
                    if (e instanceof ExperimentStore.StoreException se) throw se;
                    throw new ExperimentStore.StoreException(e.getMessage(), e);
                }
                closeQuietly();
                if (System.nanoTime() > deadline) {
                    throw new ExperimentStore.StoreException(
                            "the store has been unreachable for " + wait.toSeconds() + " s (" + sql.getMessage() + ")",
                            e);
                }
                if (!reported) {
                    log.println(String.format(
                            Locale.ROOT,
                            "brokkr fleet: the store is unreachable (%s); waiting up to %d s for it",
                            firstLine(sql.getMessage()),
                            wait.toSeconds()));
                    reported = true;
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new ExperimentStore.StoreException("interrupted while waiting for the store", ie);
                }
                backoff = Math.min(2_000, backoff * 2);
            }
        }
    }

    private static String firstLine(String m) {
        if (m == null) return "no message";
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private static SQLException sqlCause(Throwable t) {
        for (Throwable x = t; x != null; x = x.getCause()) if (x instanceof SQLException s) return s;
        return null;
    }

    /**
     * A failure that a new connection (or the same work again) may not meet: the connection's
     * (SQLSTATE class 08), the server shutting down or starting ({@code 57P01..57P03}), too many
     * connections ({@code 53300}), a serialization failure or deadlock ({@code 40001}, {@code 40P01}).
     */
    static boolean transientFailure(SQLException e) {
        String state = e.getSQLState();
        if (state == null) return e.getCause() instanceof java.io.IOException;
        return state.startsWith("08")
                || state.startsWith("57P")
                || state.equals("53300")
                || state.equals("40001")
                || state.equals("40P01");
    }

    private void rollbackQuietly() {
        try {
            if (conn != null) conn.rollback();
        } catch (SQLException ignored) {
            // the connection is being dropped anyway
        }
    }

    private void closeQuietly() {
        try {
            if (conn != null) conn.close();
        } catch (SQLException ignored) {
            // a lost connection cannot be closed cleanly
        }
        conn = null;
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }
}
