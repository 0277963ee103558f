package brokkr.experiment;

import brokkr.eval.AgentDef;
import brokkr.eval.EnvironmentDef;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.ExperimentStore.CellState;
import brokkr.run.Cancellation;
import brokkr.run.Plan;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Experiments across machines: a PostgreSQL store's cells run by a fleet of {@code brokkr worker}
 * processes. {@link #register} ({@code experiment run FILE --store URL --workers 0}) puts an
 * experiment's cells in the store and its queue; {@link #work} is one worker; {@link #status} what the
 * fleet is doing. The queue and its lease protocol are {@link FleetQueue}'s.
 */
public final class Fleet {
    private Fleet() {}

    /** What a registration found: the experiment's cells and how many are done, exhausted or still to run. */
    public record Registration(String name, int cells, int done, int exhausted, int toRun, Map<String, Integer> caps) {
        public String summary() {
            return "experiment " + name + ": " + cells + " cells queued (" + done + " already done, " + exhausted
                    + " out of infrastructure retries, " + toRun + " to run)"
                    + (caps.isEmpty() ? "" : "; fleet-wide caps " + caps)
                    + "; start workers with ./brokkr worker --store URL";
        }
    }

    /**
     * Registers {@code spec} in the PostgreSQL store {@code store} (its definitions and cells, as a run
     * does) and queues its cells for workers; returns at once. {@code limits}: per provider, the most
     * cells calling it leased at once across the fleet, over the spec's {@code providers} concurrency.
     * Models are not opened here (the registering machine needs no key): workers open them.
     */
    public static Registration register(
            ExperimentSpec spec, PostgresLocation store, Registry registry, Map<String, Integer> limits) {
        if (spec.cache().file() != null)
            throw new ExperimentSpec.SpecException("cache_file names a file on this machine; a fleet's model-call"
                    + " cache is the store's own (drop cache_file, keep cache: true)");
        Plan plan = Planner.plan(spec, registry);
        Map<String, Integer> caps = new TreeMap<>();
        spec.providerLimits().forEach((p, l) -> {
            if (l.concurrency() > 0) caps.put(p, l.concurrency());
        });
        caps.putAll(limits);
        Map<CellKey, CellState> states;
        try (ExperimentStore s = ExperimentStore.openForRun(store)) {
            Map<String, EnvironmentDef> envs = new LinkedHashMap<>();
            Map<String, AgentDef> agents = new LinkedHashMap<>();
            for (Plan.Unit u : plan.units()) {
                envs.putIfAbsent(u.cell().env().id(), u.cell().env());
                agents.putIfAbsent(u.cell().agent().id(), u.cell().agent());
            }
            s.register(
                    spec.name(),
                    spec.toJson(),
                    envs.values(),
                    agents.values(),
                    plan.units().stream().map(StoreSink::row).toList());
            states = s.query().cellStates();
            // Still under the store's run lock: no single-process run registers it meanwhile.
            try (FleetDb db = new FleetDb(() -> store.connect(PgStore.env()), java.time.Duration.ZERO, System.err)) {
                db.tx(c -> {
                    try (Statement st = c.createStatement()) {
                        FleetQueue.createTables(st);
                    }
                    FleetQueue.register(c, spec, plan.units(), states, caps);
                    return null;
                });
            }
        }
        int done = 0, exhausted = 0;
        for (Plan.Unit u : plan.units()) {
            CellState st = states.getOrDefault(StoreSink.key(u), new CellState(0, 0));
            if (st.completed() > 0) done++;
            else if (st.infrastructureFailures() > spec.maxInfraRetries()) exhausted++;
        }
        Map<String, Integer> shown = new TreeMap<>(caps);
        shown.values().removeIf(v -> v <= 0);
        return new Registration(
                spec.name(), plan.units().size(), done, exhausted, plan.units().size() - done - exhausted, shown);
    }

    /** Runs one worker against {@code store} until its experiments have no open cell (or {@code cancellation}). */
    public static FleetWorker.Result work(
            PostgresLocation store,
            Registry registry,
            FleetWorker.Options options,
            PrintStream log,
            Cancellation cancellation) {
        return FleetWorker.run(
                () -> sharingTheRunLock(store, store.connect(PgStore.env())),
                new Pg(store),
                registry,
                options,
                log,
                cancellation);
    }

    /**
     * A worker's connection holds the store's run lock shared ({@link ExperimentStore#tryRunLock}): a one-process
     * {@code experiment run} of the store (the exclusive lock) is refused while workers run, and a worker is refused
     * while one runs, rather than both running the same cells.
     */
    static Connection sharingTheRunLock(PostgresLocation store, Connection c) {
        boolean shared;
        try {
            shared = ExperimentStore.tryRunLock(c, store, true);
        } catch (SQLException e) {
            closeQuietly(c);
            throw new ExperimentStore.StoreException(store.display() + ": " + e.getMessage(), e);
        }
        if (shared) return c;
        closeQuietly(c);
        throw new IllegalArgumentException(store.display() + " is being run by a single process (experiment run holds"
                + " its run lock): workers can work on it once that run ends");
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // refusing anyway
        }
    }

    /** The PostgreSQL store as the fleet writes it. */
    private record Pg(PostgresLocation location) implements FleetStore {
        @Override
        public void checkSchema(FleetDb db) {
            // The store's own opening checks: a Brokkr store of this schema version (a reader changes nothing).
            StoreConnection.forReading(location).close();
            boolean queued = db.tx(c -> hasTable(c, "fleet_cell"));
            if (!queued)
                throw new IllegalArgumentException(
                        location.display()
                                + " has no experiment queued for workers (experiment run FILE --store URL --workers 0 queues one)");
        }

        @Override
        public ModelCache openCache() {
            return ModelCache.inStore(location);
        }

        @Override
        public void writeAttempts(Connection c, List<ExperimentStore.Prepared> batch) throws SQLException {
            ExperimentStore.insertAttempts(c, StoreDialect.POSTGRESQL, batch);
        }
    }

    private static boolean hasTable(Connection c, String name) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT 1 FROM information_schema.tables"
                + " WHERE table_schema = current_schema() AND table_name = ?")) {
            p.setString(1, name);
            try (ResultSet r = p.executeQuery()) {
                return r.next();
            }
        }
    }

    /** A worker as {@link #status} shows it. {@code live}: its heartbeat is within its lease (and it has not stopped). */
    public record WorkerRow(
            String id,
            String host,
            long pid,
            int slots,
            int leases,
            int recorded,
            int refused,
            double secondsSinceHeartbeat,
            boolean stopped,
            boolean live) {}

    /** One provider's cells in flight across the fleet, and its cap (0: none). */
    public record ProviderRow(String provider, int inFlight, int cap) {}

    /**
     * What the fleet is doing with an experiment's cells: {@code done} (a completed attempt),
     * {@code running} (a live lease), {@code pending} (waiting, {@code expired} of them under a lease
     * that expired: its worker is gone or stalled), {@code exhausted} (out of infrastructure retries),
     * {@code infraFailures} attempts recorded as infrastructure failures; the workers that ever worked on
     * the store, and the providers' cells in flight.
     */
    public record Status(
            String experiment,
            int cells,
            int done,
            int running,
            int pending,
            int expired,
            int exhausted,
            int infraFailures,
            List<WorkerRow> workers,
            List<ProviderRow> providers) {}

    /** The fleet's status for the experiments of {@code store} ({@code name}: only that one). */
    public static List<Status> status(PostgresLocation store, String name) {
        StoreConnection.forReading(store).close();
        try (FleetDb db = new FleetDb(() -> store.connect(PgStore.env()), java.time.Duration.ZERO, System.err)) {
            return db.tx(c -> {
                if (!hasTable(c, "fleet_cell"))
                    throw new IllegalArgumentException(
                            store.display() + " has no experiment queued for workers (experiment run FILE --store URL"
                                    + " --workers 0 queues one)");
                List<String> names = new ArrayList<>();
                try (PreparedStatement p = c.prepareStatement("SELECT name FROM fleet_experiment"
                        + (name == null ? "" : " WHERE name = ?") + " ORDER BY name")) {
                    if (name != null) p.setString(1, name);
                    try (ResultSet r = p.executeQuery()) {
                        while (r.next()) names.add(r.getString(1));
                    }
                }
                if (name != null && names.isEmpty())
                    throw new IllegalArgumentException("no experiment " + name + " is queued in " + store.display());
                List<WorkerRow> workers = workers(c);
                List<ProviderRow> providers = providers(c);
                List<Status> out = new ArrayList<>();
                for (String n : names) out.add(status(c, n, workers, providers));
                return out;
            });
        }
    }

    private static Status status(Connection c, String name, List<WorkerRow> workers, List<ProviderRow> providers)
            throws SQLException {
        try (PreparedStatement p = c.prepareStatement("""
                SELECT count(*) FILTER (WHERE state <> 'inactive'),
                  count(*) FILTER (WHERE state = 'done'),
                  count(*) FILTER (WHERE state = 'leased' AND lease_expires >= now()),
                  count(*) FILTER (WHERE state = 'pending' OR (state = 'leased' AND lease_expires < now())),
                  count(*) FILTER (WHERE state = 'leased' AND lease_expires < now()),
                  count(*) FILTER (WHERE state = 'exhausted'),
                  coalesce(sum(infra_failures) FILTER (WHERE state <> 'inactive'), 0)
                FROM fleet_cell WHERE experiment = ?""")) {
            p.setString(1, name);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return new Status(
                        name,
                        r.getInt(1),
                        r.getInt(2),
                        r.getInt(3),
                        r.getInt(4),
                        r.getInt(5),
                        r.getInt(6),
                        r.getInt(7),
                        workers,
                        providers);
            }
        }
    }

    private static List<WorkerRow> workers(Connection c) throws SQLException {
        List<WorkerRow> out = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("""
                        SELECT w.id, w.host, w.pid, w.slots,
                          (SELECT count(*) FROM fleet_cell f WHERE f.worker = w.id AND f.state = 'leased'
                             AND f.lease_expires >= now()),
                          w.recorded, w.refused, extract(epoch FROM now() - w.heartbeat_at), w.stopped_at IS NOT NULL,
                          w.stopped_at IS NULL AND w.heartbeat_at >= now() - (SELECT coalesce(max(f.lease_expires - f.leased_at),
                             interval '300 seconds') FROM fleet_cell f WHERE f.leased_at IS NOT NULL AND f.worker = w.id)
                        FROM fleet_worker w ORDER BY w.stopped_at IS NOT NULL, w.started_at""")) {
            while (r.next())
                out.add(new WorkerRow(
                        r.getString(1),
                        r.getString(2),
                        r.getLong(3),
                        r.getInt(4),
                        r.getInt(5),
                        r.getInt(6),
                        r.getInt(7),
                        r.getDouble(8),
                        r.getBoolean(9),
                        r.getBoolean(10)));
        }
        return out;
    }

    private static List<ProviderRow> providers(Connection c) throws SQLException {
        Map<String, int[]> rows = new TreeMap<>();
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("""
                        SELECT pr, count(*) FROM fleet_cell, unnest(providers) AS pr
                        WHERE state = 'leased' AND lease_expires >= now() GROUP BY pr""")) {
            while (r.next()) rows.computeIfAbsent(r.getString(1), k -> new int[2])[0] = r.getInt(2);
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT provider, concurrency FROM fleet_limit")) {
            while (r.next()) rows.computeIfAbsent(r.getString(1), k -> new int[2])[1] = r.getInt(2);
        }
        List<ProviderRow> out = new ArrayList<>();
        rows.forEach((p, v) -> out.add(new ProviderRow(p, v[0], v[1])));
        return out;
    }
}
