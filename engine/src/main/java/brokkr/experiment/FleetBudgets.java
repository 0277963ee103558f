package brokkr.experiment;

import brokkr.cost.Budget;
import brokkr.cost.PriceTable;
import brokkr.cost.Spending;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The experiment budgets ({@code budget:} of a queued experiment's file) as a fleet honours them: what the store has
 * recorded of each budgeted experiment, every worker's attempts alike, priced as its own run prices them
 * ({@link Spending}, the experiment's {@code prices:} over the standard table). A worker reads the attempts recorded
 * since its last look before each claim ({@link #refresh}) and claims no new cell of an experiment whose budget is
 * reached; the cells in flight finish. Like a one-process run's budget it counts what the store already held, so a
 * larger budget (the experiment registered again) goes on.
 */
final class FleetBudgets {
    private final Map<String, Spending> spending = new LinkedHashMap<>();
    private final Map<String, Long> seen = new HashMap<>();
    private final Set<String> reached = new LinkedHashSet<>();

    /** The budgets of {@code specs} (experiment name to spec) that have one. */
    FleetBudgets(Map<String, ExperimentSpec> specs) {
        specs.forEach((name, spec) -> {
            Budget b = spec.costs().budget();
            if (b.limited()) {
                spending.put(name, new Spending(b, spec.costs().prices(PriceTable.standard())));
                seen.put(name, 0L);
            }
        });
    }

    boolean any() {
        return !spending.isEmpty();
    }

    /**
     * Adds the attempts of each budgeted experiment recorded since the last look (on {@code c}, within a claim's
     * transaction or before it); the experiments whose budget is reached, newly reached ones first said in
     * {@code newly}.
     */
    Set<String> refresh(Connection c, Set<String> newly) throws SQLException {
        for (var e : spending.entrySet()) {
            if (reached.contains(e.getKey())) continue;
            try (PreparedStatement p = c.prepareStatement("""
                    SELECT a.id, a.evidence_json FROM attempt a JOIN fleet_cell f
                      ON f.env_id = a.env_id AND f.agent_id = a.agent_id AND f.repetition = a.repetition
                    WHERE f.experiment = ? AND a.id > ? ORDER BY a.id""")) {
                p.setString(1, e.getKey());
                p.setLong(2, seen.get(e.getKey()));
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        seen.put(e.getKey(), r.getLong(1));
                        e.getValue().add(EvidenceCodec.decode(r.getString(2), shas -> blobs(c, shas)));
                    }
                }
            }
            if (e.getValue().reached()) {
                reached.add(e.getKey());
                newly.add(e.getKey());
            }
        }
        return Set.copyOf(reached);
    }

    /** What {@code experiment} spent against its budget, in one line. */
    String describe(String experiment) {
        return spending.get(experiment).describe();
    }

    private static Map<String, String> blobs(Connection c, Set<String> shas) {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement p = c.prepareStatement("SELECT text FROM blob WHERE sha256 = ?")) {
            for (String sha : shas) {
                p.setString(1, sha);
                try (ResultSet r = p.executeQuery()) {
                    if (r.next()) out.put(sha, StoreDialect.POSTGRESQL.getAnyText(r, 1));
                }
            }
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(e.getMessage(), e);
        }
        return out;
    }
}
