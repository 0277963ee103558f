package brokkr.experiment;

import brokkr.eval.BenchmarkProvider;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.python.PyJson;
import brokkr.run.Plan;
import brokkr.value.Json;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The work queue of experiments run by a fleet of workers ({@code brokkr worker}), kept in the
 * PostgreSQL store beside the cells and attempts. One row per cell ({@code fleet_cell}) says whether
 * it is pending, leased, done (a completed attempt), exhausted (out of infrastructure retries) or
 * inactive (not in the experiment's current spec).
 *
 * <p>The lease protocol (all times are the database server's {@code now()}, so workers' clocks never
 * matter):
 * <ul>
 *   <li><b>claim</b>: one transaction takes the first pending cell (or one whose lease expired) with
 *       {@code SELECT ... FOR UPDATE SKIP LOCKED} (claimers never wait on each other's rows), checks
 *       the caps of the providers it calls under the lock of their {@code fleet_limit} rows (so the
 *       count of live leases per provider is exact across the fleet), and leases it: a new
 *       {@code epoch} (the fencing token), the worker's id and an expiry;</li>
 *   <li><b>heartbeat</b>: extends the expiry of the worker's live leases; a lease claimed again by
 *       another worker is no longer the worker's, so it is not extended;</li>
 *   <li><b>record</b>: one transaction locks the cell's row, checks that its epoch is still the one
 *       this worker leased it with, inserts the attempt and ends the lease; a result whose lease was
 *       claimed again (it expired: the worker was stopped, partitioned, or too slow to heartbeat) is
 *       refused and nothing of it is written. So every cell has exactly one recorded attempt per lease,
 *       a completed one at most once, and the one that counts is the latest lease's. The row
 *       remembers the epoch it recorded, so a record whose commit's answer was lost (the server went
 *       away) and that is run again finds its own attempt and does not insert it twice.</li>
 * </ul>
 * Infrastructure failures keep the single-process rules: recorded, never scored, and the cell is
 * pending again until it has failed {@code 1 + max_infra_retries} times (then exhausted).
 */
final class FleetQueue {
    private FleetQueue() {}

    /** The cell's states, as {@code fleet_cell.state} holds them. */
    static final String PENDING = "pending",
            LEASED = "leased",
            DONE = "done",
            EXHAUSTED = "exhausted",
            INACTIVE = "inactive";

    /** The queue's tables (in the store's schema), created when absent. */
    static void createTables(Statement s) throws SQLException {
        s.execute("""
                CREATE TABLE IF NOT EXISTS fleet_experiment(
                  name TEXT PRIMARY KEY, source_json TEXT NOT NULL, max_infra_retries INTEGER NOT NULL,
                  registered_at TIMESTAMPTZ NOT NULL)""");
        s.execute("""
                CREATE TABLE IF NOT EXISTS fleet_cell(
                  env_id TEXT NOT NULL, agent_id TEXT NOT NULL, repetition INTEGER NOT NULL,
                  experiment TEXT NOT NULL, ordinal INTEGER NOT NULL, providers TEXT[] NOT NULL,
                  state TEXT NOT NULL CHECK (state IN ('pending', 'leased', 'done', 'exhausted', 'inactive')),
                  epoch BIGINT NOT NULL DEFAULT 0, worker TEXT, leased_at TIMESTAMPTZ, lease_expires TIMESTAMPTZ,
                  recorded_epoch BIGINT, infra_failures INTEGER NOT NULL DEFAULT 0,
                  PRIMARY KEY(env_id, agent_id, repetition))""");
        s.execute("CREATE INDEX IF NOT EXISTS fleet_cell_open ON fleet_cell(experiment, ordinal)"
                + " WHERE state IN ('pending', 'leased')");
        s.execute("CREATE INDEX IF NOT EXISTS fleet_cell_leased ON fleet_cell(worker) WHERE state = 'leased'");
        s.execute("CREATE TABLE IF NOT EXISTS fleet_limit(provider TEXT PRIMARY KEY, concurrency INTEGER NOT NULL)");
        s.execute("""
                CREATE TABLE IF NOT EXISTS fleet_worker(
                  id TEXT PRIMARY KEY, host TEXT NOT NULL, pid BIGINT NOT NULL, slots INTEGER NOT NULL,
                  experiment TEXT, started_at TIMESTAMPTZ NOT NULL, heartbeat_at TIMESTAMPTZ NOT NULL,
                  stopped_at TIMESTAMPTZ, recorded INTEGER NOT NULL DEFAULT 0, refused INTEGER NOT NULL DEFAULT 0)""");
    }

    /** The non-scripted model providers a cell calls (every role), sorted: what the fleet's caps count. */
    static List<String> providers(Plan.Unit u) {
        Set<String> out = new TreeSet<>();
        if (!u.cell().agent().modelRef().provider().equals(BenchmarkProvider.SCRIPTED))
            out.add(u.cell().agent().modelRef().provider());
        u.cell().env().models().values().forEach(ref -> {
            if (!ref.provider().equals(BenchmarkProvider.SCRIPTED)) out.add(ref.provider());
        });
        return List.copyOf(out);
    }

    /**
     * Puts an experiment's cells in the queue (its definitions and cells are already registered in the
     * store, in the same transaction): each cell of the plan is done when it has a completed attempt,
     * exhausted when out of infrastructure retries, pending otherwise, unless a live lease holds it (a
     * registration while workers run changes no lease); cells of the experiment no longer in its spec
     * are inactive. {@code limits}: per provider, the most cells calling it that may be leased at once
     * across the fleet (0: unlimited, the row is removed).
     */
    static void register(
            Connection c,
            ExperimentSpec spec,
            List<Plan.Unit> units,
            Map<CellKey, ExperimentStore.CellState> states,
            Map<String, Integer> limits)
            throws SQLException {
        try (PreparedStatement e = c.prepareStatement("""
                INSERT INTO fleet_experiment(name, source_json, max_infra_retries, registered_at) VALUES(?,?,?,now())
                ON CONFLICT(name) DO UPDATE SET source_json = excluded.source_json,
                  max_infra_retries = excluded.max_infra_retries, registered_at = excluded.registered_at""")) {
            e.setString(1, spec.name());
            e.setString(2, PyJson.dumps(SpecSource.of(spec), PyJson.DumpOptions.SORTED.withEnsureAscii(false)));
            e.setInt(3, spec.maxInfraRetries());
            e.executeUpdate();
        }
        try (PreparedStatement p = c.prepareStatement(
                "UPDATE fleet_cell SET state = 'inactive' WHERE experiment = ?" + " AND state <> 'leased'")) {
            p.setString(1, spec.name());
            p.executeUpdate();
        }
        try (PreparedStatement p = c.prepareStatement("""
                INSERT INTO fleet_cell(env_id, agent_id, repetition, experiment, ordinal, providers, state, infra_failures)
                VALUES(?,?,?,?,?,?,?,?)
                ON CONFLICT(env_id, agent_id, repetition) DO UPDATE SET experiment = excluded.experiment,
                  ordinal = excluded.ordinal, providers = excluded.providers, infra_failures = excluded.infra_failures,
                  state = CASE WHEN fleet_cell.state = 'leased' THEN 'leased' ELSE excluded.state END""")) {
            int ordinal = 0;
            for (Plan.Unit u : units) {
                CellKey k = StoreSink.key(u);
                ExperimentStore.CellState st = states.getOrDefault(k, new ExperimentStore.CellState(0, 0));
                String state = st.completed() > 0
                        ? DONE
                        : st.infrastructureFailures() > spec.maxInfraRetries() ? EXHAUSTED : PENDING;
                p.setString(1, k.environmentId());
                p.setString(2, k.agentId());
                p.setInt(3, k.repetition());
                p.setString(4, spec.name());
                p.setInt(5, ordinal++);
                p.setArray(6, c.createArrayOf("text", providers(u).toArray()));
                p.setString(7, state);
                p.setInt(8, st.infrastructureFailures());
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement del = c.prepareStatement("DELETE FROM fleet_limit WHERE provider = ?");
                PreparedStatement put = c.prepareStatement("INSERT INTO fleet_limit(provider, concurrency) VALUES(?,?)"
                        + " ON CONFLICT(provider) DO UPDATE SET concurrency = excluded.concurrency")) {
            for (var l : limits.entrySet()) {
                if (l.getValue() <= 0) {
                    del.setString(1, l.getKey());
                    del.executeUpdate();
                } else {
                    put.setString(1, l.getKey());
                    put.setInt(2, l.getValue());
                    put.executeUpdate();
                }
            }
        }
    }

    /** An experiment the queue holds: its name and spec (as {@link SpecSource} wrote it). */
    record Registered(String name, ExperimentSpec spec) {}

    /** The experiments in the queue (only {@code name} when given), by name. */
    static List<Registered> experiments(Connection c, String name) throws SQLException {
        List<Registered> out = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("SELECT name, source_json FROM fleet_experiment"
                + (name == null ? "" : " WHERE name = ?") + " ORDER BY name")) {
            if (name != null) p.setString(1, name);
            try (ResultSet r = p.executeQuery()) {
                while (r.next())
                    out.add(new Registered(
                            r.getString(1),
                            SpecSource.read(Json.parse(r.getString(2)).asDict())));
            }
        }
        return out;
    }

    /** The cells of {@code experiment} in the queue that are not inactive. */
    static Set<CellKey> activeCells(Connection c, String experiment) throws SQLException {
        Set<CellKey> out = new java.util.HashSet<>();
        try (PreparedStatement p = c.prepareStatement(
                "SELECT env_id, agent_id, repetition FROM fleet_cell WHERE experiment = ? AND state <> 'inactive'")) {
            p.setString(1, experiment);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) out.add(new CellKey(r.getString(1), r.getString(2), r.getInt(3)));
            }
        }
        return out;
    }

    /** A lease: the cell, its experiment and the epoch it was claimed with. */
    record Lease(CellKey cell, String experiment, long epoch) {}

    /** What a claim found: leases, or none now while cells are still open (leased or capped), or nothing left. */
    record Claim(List<Lease> leases, boolean open) {
        static final Claim FINISHED = new Claim(List.of(), false);
        static final Claim WAIT = new Claim(List.of(), true);
    }

    /** How many candidate rows a claim locks beyond the cells it wants (it leases those its providers' caps allow). */
    private static final int CLAIM_WINDOW = 8;

    /**
     * Claims up to {@code max} cells of {@code experiments} for {@code worker} for {@code lease}, in plan
     * order, within the fleet's provider caps; one transaction however many it takes.
     */
    static Claim claim(Connection c, List<String> experiments, String worker, Duration lease, int max)
            throws SQLException {
        Array names = c.createArrayOf("text", experiments.toArray());
        record Candidate(CellKey key, String experiment, List<String> providers, long epoch) {}
        List<Candidate> found = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("""
                SELECT env_id, agent_id, repetition, experiment, providers, epoch FROM fleet_cell
                WHERE experiment = ANY(?) AND (state = 'pending' OR (state = 'leased' AND lease_expires < now()))
                ORDER BY ordinal LIMIT ? FOR UPDATE SKIP LOCKED""")) {
            p.setArray(1, names);
            p.setInt(2, max + CLAIM_WINDOW);
            try (ResultSet r = p.executeQuery()) {
                while (r.next())
                    found.add(new Candidate(
                            new CellKey(r.getString(1), r.getString(2), r.getInt(3)),
                            r.getString(4),
                            List.of((String[]) r.getArray(5).getArray()),
                            r.getLong(6)));
            }
        }
        if (found.isEmpty()) return open(c, names) ? Claim.WAIT : Claim.FINISHED;
        Set<String> providers = new TreeSet<>();
        for (Candidate x : found) providers.addAll(x.providers());
        Map<String, Integer> caps = new TreeMap<>();
        if (!providers.isEmpty()) {
            // The caps' rows, locked in name order (no two claimers deadlock): from here to the commit no other
            // claim counts or takes a lease of these providers, so the count below stays exact.
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT provider, concurrency FROM fleet_limit WHERE provider = ANY(?) ORDER BY provider FOR UPDATE")) {
                p.setArray(1, c.createArrayOf("text", providers.toArray()));
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) caps.put(r.getString(1), r.getInt(2));
                }
            }
        }
        Map<String, Integer> inFlight = caps.isEmpty() ? new TreeMap<>() : inFlight(c, caps.keySet());
        List<Candidate> chosen = new ArrayList<>();
        for (Candidate x : found) {
            if (chosen.size() == max) break;
            boolean fits = true;
            for (String p : x.providers())
                if (caps.containsKey(p) && inFlight.getOrDefault(p, 0) >= caps.get(p)) fits = false;
            if (!fits) continue;
            chosen.add(x);
            for (String p : x.providers()) inFlight.merge(p, 1, Integer::sum);
        }
        if (chosen.isEmpty()) return Claim.WAIT;
        List<Lease> out = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("""
                UPDATE fleet_cell SET state = 'leased', epoch = ?, worker = ?, leased_at = now(),
                  lease_expires = now() + make_interval(secs => ?)
                WHERE env_id = ? AND agent_id = ? AND repetition = ?""")) {
            for (Candidate x : chosen) {
                p.setLong(1, x.epoch() + 1);
                p.setString(2, worker);
                p.setDouble(3, lease.toMillis() / 1000.0);
                bindKey(p, 4, x.key());
                p.addBatch();
                out.add(new Lease(x.key(), x.experiment(), x.epoch() + 1));
            }
            p.executeBatch();
        }
        return new Claim(out, true);
    }

    /** Whether any cell of the experiments is pending or leased (live or expired). */
    private static boolean open(Connection c, Array names) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT EXISTS(SELECT 1 FROM fleet_cell WHERE experiment = ANY(?)"
                + " AND state IN ('pending', 'leased'))")) {
            p.setArray(1, names);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getBoolean(1);
            }
        }
    }

    /** Live leases (not expired) per provider, of {@code providers}, across the whole store. */
    static Map<String, Integer> inFlight(Connection c, Set<String> providers) throws SQLException {
        Map<String, Integer> out = new TreeMap<>();
        try (PreparedStatement p = c.prepareStatement("""
                SELECT pr, count(*) FROM fleet_cell, unnest(providers) AS pr
                WHERE state = 'leased' AND lease_expires >= now() AND pr = ANY(?) GROUP BY pr""")) {
            p.setArray(1, c.createArrayOf("text", providers.toArray()));
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) out.put(r.getString(1), r.getInt(2));
            }
        }
        return out;
    }

    /**
     * Extends the worker's leases by {@code lease} and notes its heartbeat; returns the leases it still
     * holds (cell to epoch): one claimed again elsewhere after it expired is not among them.
     */
    static Map<CellKey, Long> heartbeat(Connection c, String worker, Duration lease) throws SQLException {
        Map<CellKey, Long> out = new LinkedHashMap<>();
        try (PreparedStatement p = c.prepareStatement("""
                UPDATE fleet_cell SET lease_expires = now() + make_interval(secs => ?)
                WHERE worker = ? AND state = 'leased' RETURNING env_id, agent_id, repetition, epoch""")) {
            p.setDouble(1, lease.toMillis() / 1000.0);
            p.setString(2, worker);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) out.put(new CellKey(r.getString(1), r.getString(2), r.getInt(3)), r.getLong(4));
            }
        }
        try (PreparedStatement p = c.prepareStatement("UPDATE fleet_worker SET heartbeat_at = now() WHERE id = ?")) {
            p.setString(1, worker);
            p.executeUpdate();
        }
        return out;
    }

    /** What became of a result handed to {@link #record}. */
    enum Recorded {
        /** Written now. */
        RECORDED,
        /** Written by an earlier try of the same record whose commit's answer was lost. */
        ALREADY,
        /** Refused: the lease expired and the cell was claimed again (or its experiment registered anew). */
        REFUSED
    }

    /** Writes the accepted attempts' rows (inside the record's transaction, after the fencing checks). */
    interface AttemptWriter {
        void write(Connection c, List<ExperimentStore.Prepared> accepted) throws SQLException;
    }

    /** A finished cell's result to record under its lease: whether it completed, its rendered attempt. */
    record Result(Lease lease, boolean completed, int maxInfraRetries, ExperimentStore.Prepared attempt) {}

    /** {@link #recordAll} of one result. */
    static Recorded record(Connection c, String worker, Result result, AttemptWriter writer) throws SQLException {
        return recordAll(c, worker, List.of(result), writer).getFirst();
    }

    /**
     * Records finished cells' results in one transaction (a group commit): for each, under the lock of
     * its cell's row, the lease's epoch must still be the cell's and the cell leased (else it is
     * refused and nothing of it is written); {@code writer} inserts the accepted attempts, and each
     * accepted cell is done ({@code completed}), pending again, or exhausted after
     * {@code 1 + maxInfraRetries} infrastructure failures. Returns what became of each, in order.
     */
    static List<Recorded> recordAll(Connection c, String worker, List<Result> results, AttemptWriter writer)
            throws SQLException {
        List<Recorded> out = new ArrayList<>();
        List<ExperimentStore.Prepared> accepted = new ArrayList<>();
        int refused = 0;
        try (PreparedStatement lock = c.prepareStatement("""
                        SELECT epoch, state, recorded_epoch, infra_failures FROM fleet_cell
                        WHERE env_id = ? AND agent_id = ? AND repetition = ? FOR UPDATE""");
                PreparedStatement end = c.prepareStatement("""
                        UPDATE fleet_cell SET state = ?, worker = NULL, lease_expires = NULL, recorded_epoch = epoch,
                          infra_failures = ? WHERE env_id = ? AND agent_id = ? AND repetition = ?""")) {
            for (Result x : results) {
                Lease lease = x.lease();
                bindKey(lock, 1, lease.cell());
                long epoch;
                String state;
                Long recordedEpoch;
                int infra;
                try (ResultSet r = lock.executeQuery()) {
                    if (!r.next()) {
                        out.add(Recorded.REFUSED);
                        refused++;
                        continue;
                    }
                    epoch = r.getLong(1);
                    state = r.getString(2);
                    long re = r.getLong(3);
                    recordedEpoch = r.wasNull() ? null : re;
                    infra = r.getInt(4);
                }
                if (recordedEpoch != null && recordedEpoch == lease.epoch()) {
                    out.add(Recorded.ALREADY);
                    continue;
                }
                if (epoch != lease.epoch() || !state.equals(LEASED)) {
                    out.add(Recorded.REFUSED);
                    refused++;
                    continue;
                }
                int failures = x.completed() ? infra : infra + 1;
                end.setString(1, x.completed() ? DONE : failures > x.maxInfraRetries() ? EXHAUSTED : PENDING);
                end.setInt(2, failures);
                bindKey(end, 3, lease.cell());
                end.addBatch();
                accepted.add(x.attempt());
                out.add(Recorded.RECORDED);
            }
            if (!accepted.isEmpty()) {
                writer.write(c, accepted);
                end.executeBatch();
            }
        }
        try (PreparedStatement p = c.prepareStatement(
                "UPDATE fleet_worker SET recorded = recorded + ?, refused = refused + ? WHERE id = ?")) {
            p.setInt(1, accepted.size());
            p.setInt(2, refused);
            p.setString(3, worker);
            p.executeUpdate();
        }
        return out;
    }

    /**
     * Writes the attempt of a cell a usage window refused ({@link brokkr.run.UsageWindows}: the runner runs the cell
     * again after the window's reset, under the same lease) as the embedded store does ({@link StoreSink#acceptRefused}):
     * an infrastructure failure kept beside the cell's later attempts, scored never. The cell stays leased (its
     * re-run's result is recorded by {@link #recordAll}), so its state and infrastructure count are untouched; a lease
     * no longer the cell's is refused, nothing written.
     */
    static Recorded recordRefused(Connection c, Lease lease, ExperimentStore.Prepared attempt, AttemptWriter writer)
            throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("""
                SELECT epoch, state FROM fleet_cell
                WHERE env_id = ? AND agent_id = ? AND repetition = ? FOR UPDATE""")) {
            bindKey(lock, 1, lease.cell());
            try (ResultSet r = lock.executeQuery()) {
                if (!r.next()
                        || r.getLong(1) != lease.epoch()
                        || !r.getString(2).equals(LEASED)) return Recorded.REFUSED;
            }
        }
        writer.write(c, List.of(attempt));
        return Recorded.RECORDED;
    }

    /** Gives a lease back unrecorded (its unit never started, or was abandoned): the cell is pending again. */
    static void release(Connection c, Lease lease) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("""
                UPDATE fleet_cell SET state = 'pending', worker = NULL, lease_expires = NULL
                WHERE env_id = ? AND agent_id = ? AND repetition = ? AND epoch = ? AND state = 'leased'""")) {
            bindKey(p, 1, lease.cell());
            p.setLong(4, lease.epoch());
            p.executeUpdate();
        }
    }

    /** Notes a worker starting. */
    static void workerStarted(Connection c, String id, String host, long pid, int slots, String experiment)
            throws SQLException {
        try (PreparedStatement p = c.prepareStatement("""
                INSERT INTO fleet_worker(id, host, pid, slots, experiment, started_at, heartbeat_at)
                VALUES(?,?,?,?,?,now(),now())""")) {
            p.setString(1, id);
            p.setString(2, host);
            p.setLong(3, pid);
            p.setInt(4, slots);
            p.setString(5, experiment);
            p.executeUpdate();
        }
    }

    /** Notes a worker ending (one killed never does: its heartbeat just stops). */
    static void workerStopped(Connection c, String id) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE fleet_worker SET stopped_at = now() WHERE id = ?")) {
            p.setString(1, id);
            p.executeUpdate();
        }
    }

    private static void bindKey(PreparedStatement p, int at, CellKey k) throws SQLException {
        p.setString(at, k.environmentId());
        p.setString(at + 1, k.agentId());
        p.setInt(at + 2, k.repetition());
    }
}
