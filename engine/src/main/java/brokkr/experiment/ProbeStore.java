package brokkr.experiment;

import brokkr.python.PyJson;
import brokkr.value.Json;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Probe records in an experiment store: table {@code probe}, beside the attempts and never among them,
 * every row marked {@code kind = 'diagnostic'}. Scorecards, pass^k and reports read attempts only, so
 * a probe can never enter one. The table is created when absent (stores made before it have none, and
 * read as having no probes).
 */
public final class ProbeStore {
    private ProbeStore() {}

    /** What a probe record is, in its {@code kind} column: a diagnostic, not a certified result. */
    public static final String KIND = "diagnostic";

    /**
     * A stored probe: its id, the comparison it belongs to ({@code null} for a probe on its own; the two
     * probes of one {@link Probes#compare} share one), that comparison's p-value, and when it was made.
     */
    public record ProbeRecord(long id, String comparison, Double pValue, long createdAtMillis, ProbeResult result) {}

    static void createTable(Statement s, StoreDialect d) throws SQLException {
        s.execute(d.ddl("""
                CREATE TABLE IF NOT EXISTS probe(
                  id ${ID},
                  kind TEXT NOT NULL DEFAULT 'diagnostic' CHECK (kind = 'diagnostic'),
                  benchmark TEXT NOT NULL, task_id TEXT NOT NULL, env_id TEXT NOT NULL,
                  source_attempt ${BIGINT}, at INTEGER NOT NULL,
                  candidate TEXT NOT NULL, n INTEGER NOT NULL, matches_gold INTEGER NOT NULL, seed ${BIGINT} NOT NULL,
                  comparison TEXT, p_value ${REAL},
                  result_json TEXT NOT NULL, created_at ${BIGINT} NOT NULL)"""));
    }

    static List<ProbeRecord> insert(StoreConnection db, List<ProbeResult> results, String comparison, Double pValue) {
        long now = System.currentTimeMillis();
        List<Long> ids = db.tx(null, () -> {
            List<Long> out = new ArrayList<>();
            try (PreparedStatement p = db.connection().prepareStatement("""
                    INSERT INTO probe(kind, benchmark, task_id, env_id, source_attempt, at, candidate, n, matches_gold, seed,
                      comparison, p_value, result_json, created_at)
                    VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)""", Statement.RETURN_GENERATED_KEYS)) {
                for (ProbeResult r : results) {
                    p.setString(1, KIND);
                    p.setString(2, r.benchmark());
                    p.setString(3, r.taskId());
                    p.setString(4, r.environmentId());
                    if (r.sourceAttempt() > 0) p.setLong(5, r.sourceAttempt());
                    else p.setNull(5, Types.INTEGER);
                    p.setInt(6, r.at());
                    p.setString(7, r.candidate());
                    p.setInt(8, r.n());
                    p.setInt(9, r.matchesGold());
                    p.setLong(10, r.seed());
                    p.setString(11, comparison);
                    if (pValue != null) p.setDouble(12, pValue);
                    else p.setNull(12, Types.REAL);
                    p.setString(13, PyJson.dumps(r.toValue(), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)));
                    p.setLong(14, now);
                    p.executeUpdate();
                    try (ResultSet k = p.getGeneratedKeys()) {
                        k.next();
                        out.add(k.getLong(1));
                    }
                }
            }
            return out;
        });
        List<ProbeRecord> out = new ArrayList<>();
        for (int i = 0; i < results.size(); i++)
            out.add(new ProbeRecord(ids.get(i), comparison, pValue, now, results.get(i)));
        return out;
    }

    static List<ProbeRecord> list(StoreConnection db) {
        return db.read(() -> {
            List<ProbeRecord> out = new ArrayList<>();
            try (Statement s = db.connection().createStatement()) {
                if (!db.dialect().hasTable(s, "probe")) return out;
                try (ResultSet r = s.executeQuery(
                        "SELECT id, comparison, p_value, created_at, result_json FROM probe ORDER BY id")) {
                    while (r.next()) {
                        double p = r.getDouble(3);
                        Double pValue = r.wasNull() ? null : p;
                        out.add(new ProbeRecord(
                                r.getLong(1),
                                r.getString(2),
                                pValue,
                                r.getLong(4),
                                ProbeResult.fromValue(Json.parse(r.getString(5)))));
                    }
                }
            }
            return out;
        });
    }
}
