package brokkr.experiment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code experiment copy SRC DST}: an experiment store copied whole into a new store, between SQLite and
 * PostgreSQL in either direction (or SQLite to SQLite, PostgreSQL to PostgreSQL). Every row of every Brokkr
 * table is copied as stored, ids included: attempts keep their ids (what {@code transcript ID} names), their
 * JSON texts and the evidence's blobs byte for byte, so the copy reads exactly as the source. The source is only
 * read (beside a running writer, as any reader); the destination must hold no experiment yet, is opened with its
 * run lock and written in one transaction: a failed copy leaves no rows (an SQLite destination keeps the empty
 * store file it opened, as a run's does).
 */
public final class StoreCopy {
    private StoreCopy() {}

    /** The tables in the order their keys refer to each other, with the column the copy orders them by. */
    private static final Map<String, String> TABLES = tables();

    private static Map<String, String> tables() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("experiment", "name");
        t.put("environment_def", "id");
        t.put("agent_def", "id");
        t.put("cell", "ordinal, env_id, agent_id, repetition");
        t.put("blob", "sha256");
        t.put("attempt", "id");
        t.put("probe", "id");
        t.put(Regrade.TABLE, "run, attempt_id");
        t.put(ModelCache.TABLE, "key");
        return t;
    }

    /** What was copied: rows by table. */
    public record Copied(String experiment, Map<String, Integer> rows) {
        public int rows(String table) {
            return rows.getOrDefault(table, 0);
        }
    }

    /**
     * Copies the store at {@code src} into {@code dst}. IllegalArgumentException when {@code src} holds no
     * experiment or {@code dst} already holds one; StoreException when either cannot be opened.
     */
    public static Copied copy(StoreLocation src, StoreLocation dst) {
        if (src.equals(dst))
            throw new IllegalArgumentException("copy needs two different stores, got " + src.display() + " twice");
        try (ExperimentQuery from = ExperimentQuery.open(src)) {
            String name = from.experiment()
                    .map(Map.Entry::getKey)
                    .orElseThrow(() -> new IllegalArgumentException(src.display() + " holds no experiment yet"));
            StoreConnection in = from.connection();
            try (ExperimentStore to = ExperimentStore.openForRun(dst)) {
                StoreConnection out = to.connection();
                Map<String, Integer> rows = out.tx(null, () -> {
                    try (Statement s = out.connection().createStatement()) {
                        for (String t : List.of("experiment", "cell", "attempt")) {
                            try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + t)) {
                                r.next();
                                if (r.getLong(1) > 0)
                                    throw new IllegalArgumentException(dst.display()
                                            + " already holds an experiment; copy into a new store (a new directory,"
                                            + " or a new ?schema=)");
                            }
                        }
                        if (out.dialect() == StoreDialect.SQLITE) {
                            Regrade.createTable(s, StoreDialect.SQLITE);
                            s.execute(ModelCache.createTable(StoreDialect.SQLITE));
                        }
                    }
                    Map<String, Integer> n = new LinkedHashMap<>();
                    for (var t : TABLES.entrySet()) n.put(t.getKey(), copyTable(in, out, t.getKey(), t.getValue()));
                    if (out.dialect() == StoreDialect.POSTGRESQL) {
                        try (Statement s = out.connection().createStatement()) {
                            // Explicit ids do not move an identity's sequence: the next attempt must come after them.
                            for (String t : List.of("attempt", "probe"))
                                s.execute("SELECT setval(pg_get_serial_sequence('" + t + "', 'id'), "
                                        + "coalesce((SELECT max(id) FROM " + t + "), 0) + 1, false)");
                        }
                    }
                    return n;
                });
                return new Copied(name, rows);
            }
        }
    }

    /** Copies one table's rows (none when the source has no such table: a store from before it existed). */
    private static int copyTable(StoreConnection in, StoreConnection out, String table, String order) {
        return in.read(() -> {
            try (Statement s = in.connection().createStatement()) {
                if (!in.dialect().hasTable(s, table)) return 0;
                int n = 0;
                try (ResultSet r = s.executeQuery("SELECT * FROM " + table + " ORDER BY " + order)) {
                    ResultSetMetaData md = r.getMetaData();
                    int cols = md.getColumnCount();
                    StringBuilder names = new StringBuilder(), marks = new StringBuilder();
                    for (int i = 1; i <= cols; i++) {
                        names.append(i > 1 ? ", " : "").append(md.getColumnName(i));
                        marks.append(i > 1 ? "," : "").append('?');
                    }
                    Connection c = out.connection();
                    try (PreparedStatement p =
                            c.prepareStatement("INSERT INTO " + table + "(" + names + ") VALUES(" + marks + ")")) {
                        while (r.next()) {
                            for (int i = 1; i <= cols; i++) {
                                if (table.equals("blob") && md.getColumnName(i).equals("text"))
                                    out.dialect().setAnyText(p, i, in.dialect().getAnyText(r, i));
                                else p.setObject(i, value(r, i));
                            }
                            p.addBatch();
                            if (++n % 500 == 0) p.executeBatch();
                        }
                        p.executeBatch();
                    }
                }
                return n;
            }
        });
    }

    /** A column's value as stored: text as text, integers as long, reals as double, NULL as null. */
    private static Object value(ResultSet r, int i) throws SQLException {
        Object v = r.getObject(i);
        if (v == null) return null;
        if (v instanceof Integer x) return x.longValue();
        if (v instanceof Float f) return f.doubleValue();
        return v;
    }
}
