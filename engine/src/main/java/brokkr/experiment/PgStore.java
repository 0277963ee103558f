package brokkr.experiment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Opening a PostgreSQL experiment store ({@link PostgresLocation}): the checks and the set-up that SQLite's file
 * header, {@code PRAGMA application_id} and {@code user_version} do for {@code experiment.db}.
 *
 * <p>A store is one schema. Its table {@value #META} holds one row, the application id
 * ({@link StoreConnection#APPLICATION_ID}, "BRKR") and the schema version ({@link ExperimentStore#SCHEMA_VERSION});
 * a schema with tables but no such row is not a Brokkr store and is left as it is; one of a newer version is
 * refused by name. The writer creates the schema (never a database) and everything in it in one transaction,
 * under a transaction-level advisory lock so that writers opening at once (a fleet of workers) set it up once;
 * PostgreSQL's DDL is transactional, so a failed opening leaves nothing behind. A reader's session is read-only
 * ({@code default_transaction_read_only}): it cannot change the store.
 */
final class PgStore {
    private PgStore() {}

    /** The table that marks a schema as a Brokkr store. */
    static final String META = "brokkr_store";

    /** Serializes writers' set-up of one database (any schema): the set-up is short and rare. */
    private static final long SETUP_LOCK = 0x42524b52_00000001L;

    static StoreConnection forWriting(PostgresLocation pg) {
        Connection c = pg.connect(System.getenv());
        try {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + SETUP_LOCK + ")");
                State st = state(c, pg);
                if (!st.schemaExists()) s.execute("CREATE SCHEMA " + pg.schema());
                else check(st, pg, true);
                s.execute("SET LOCAL search_path TO " + pg.schema());
                s.execute(
                        ddl(
                                "CREATE TABLE IF NOT EXISTS " + META
                                        + "(application_id INTEGER NOT NULL, schema_version INTEGER NOT NULL, views_sha256 TEXT NOT NULL)"));
                ExperimentStore.createTables(s, StoreDialect.POSTGRESQL);
                s.execute(TRY_JSONB_FUNCTION);
                s.execute(ModelCache.createTable(StoreDialect.POSTGRESQL));
                Regrade.createTable(s, StoreDialect.POSTGRESQL);
                String views = StoreViews.digest(StoreDialect.POSTGRESQL);
                if (!views.equals(st.viewsSha256())) StoreViews.create(s, StoreDialect.POSTGRESQL);
                s.execute("DELETE FROM " + META);
                try (PreparedStatement p = c.prepareStatement("INSERT INTO " + META + " VALUES(?,?,?)")) {
                    p.setInt(1, StoreConnection.APPLICATION_ID);
                    p.setInt(2, ExperimentStore.SCHEMA_VERSION);
                    p.setString(3, views);
                    p.executeUpdate();
                }
            }
            c.commit();
            StoreConnection sc = new StoreConnection(c, null, pg, StoreDialect.POSTGRESQL, null);
            sc.reconnectWith(() -> session(pg, false));
            return sc;
        } catch (SQLException | RuntimeException e) {
            rollbackAndClose(c);
            if (e instanceof ExperimentStore.StoreException se) throw se;
            throw new ExperimentStore.StoreException(
                    "cannot open the store " + pg.display() + ": " + e.getMessage(), e);
        }
    }

    static StoreConnection forReading(PostgresLocation pg) {
        Connection c = pg.connect(System.getenv());
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            }
            c.setAutoCommit(false);
            State st = state(c, pg);
            if (!st.schemaExists())
                throw new ExperimentStore.StoreException(
                        pg.display() + " holds no experiment store (database " + pg.database() + " has no schema "
                                + pg.schema() + "); nothing was created",
                        null);
            check(st, pg, false);
            c.commit();
            StoreConnection sc = new StoreConnection(c, null, pg, StoreDialect.POSTGRESQL, null);
            sc.reconnectWith(() -> session(pg, true));
            return sc;
        } catch (SQLException | RuntimeException e) {
            rollbackAndClose(c);
            if (e instanceof ExperimentStore.StoreException || e instanceof IllegalArgumentException)
                throw (RuntimeException) e;
            throw new ExperimentStore.StoreException(
                    "cannot read the store " + pg.display() + ": " + e.getMessage(), e);
        }
    }

    /** A new connection to an opened store: autocommit off, read-only for a reader (the store was checked before). */
    static Connection session(PostgresLocation pg, boolean readOnly) {
        Connection c = pg.connect(System.getenv());
        try {
            if (readOnly) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
                }
            }
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            rollbackAndClose(c);
            throw new ExperimentStore.StoreException(
                    "cannot open the store " + pg.display() + ": " + e.getMessage(), e);
        }
    }

    /** What the schema holds: whether it exists, its tables, and the marker row's values (0 when absent). */
    private record State(
            boolean schemaExists, List<String> tables, int applicationId, int version, String viewsSha256) {}

    private static State state(Connection c, PostgresLocation pg) throws SQLException {
        boolean exists;
        try (PreparedStatement p = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            p.setString(1, pg.schema());
            try (ResultSet r = p.executeQuery()) {
                exists = r.next();
            }
        }
        List<String> tables = new ArrayList<>();
        if (!exists) return new State(false, tables, 0, 0, null);
        try (PreparedStatement p = c.prepareStatement(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name")) {
            p.setString(1, pg.schema());
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) tables.add(r.getString(1));
            }
        }
        int app = 0, version = 0;
        String views = null;
        if (tables.contains(META)) {
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery(
                            "SELECT application_id, schema_version, views_sha256 FROM " + pg.schema() + "." + META)) {
                if (r.next()) {
                    app = r.getInt(1);
                    version = r.getInt(2);
                    views = r.getString(3);
                }
            }
        }
        return new State(true, tables, app, version, views);
    }

    private static void check(State st, PostgresLocation pg, boolean emptyIsFine) {
        if (st.tables().isEmpty() && emptyIsFine) return;
        if (st.tables().isEmpty() || !st.tables().contains(META))
            throw new ExperimentStore.StoreException(
                    pg.display() + " is not a Brokkr experiment store (schema " + pg.schema() + " of database "
                            + pg.database()
                            + (st.tables().isEmpty() ? " is empty" : " holds other tables and no " + META + " table")
                            + "); it is left as it is",
                    null);
        if (st.applicationId() != StoreConnection.APPLICATION_ID)
            throw new ExperimentStore.StoreException(
                    pg.display() + " is not a Brokkr experiment store (" + META + " names application "
                            + Integer.toHexString(st.applicationId()) + "); it is left as it is",
                    null);
        if (st.version() != ExperimentStore.SCHEMA_VERSION)
            throw new ExperimentStore.StoreException(
                    pg.display() + " has schema version " + st.version() + "; this Brokkr reads and writes "
                            + ExperimentStore.SCHEMA_VERSION + " (a PostgreSQL store is never upgraded or downgraded in"
                            + " place: use the Brokkr that made it, or experiment copy it into a new store)",
                    null);
    }

    private static String ddl(String sql) {
        return StoreDialect.POSTGRESQL.ddl(sql);
    }

    /**
     * {@code brokkr_try_jsonb(text)}: the text as jsonb, or NULL when it is not valid JSON (SQLite's
     * {@code json_valid}), so that one damaged record cannot fail a query over every attempt.
     */
    static final String TRY_JSONB_FUNCTION = """
            CREATE OR REPLACE FUNCTION brokkr_try_jsonb(t TEXT) RETURNS JSONB LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
              RETURN t::jsonb;
            EXCEPTION WHEN others THEN
              RETURN NULL;
            END $$""";

    private static void rollbackAndClose(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // closing matters more
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // the error that made us close matters more
        }
    }

    /** The environment credentials come from (a seam for nothing else: the process's own). */
    static Map<String, String> env() {
        return System.getenv();
    }
}
