package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.FleetQueue.Claim;
import brokkr.experiment.FleetQueue.Lease;
import brokkr.experiment.FleetQueue.Recorded;
import brokkr.experiment.FleetQueue.Registered;
import brokkr.run.Cancellation;
import brokkr.run.Job;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.RunModels;
import brokkr.run.Runner;
import brokkr.run.Sink;
import java.io.PrintStream;
import java.net.InetAddress;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code brokkr worker}: one process of a fleet. It plans the queued experiments' cells itself (from
 * the spec stored with them, checking that it plans exactly the registered cells: the same benchmark
 * data and definitions), then claims cells one free slot at a time ({@link FleetQueue#claim}), runs
 * each on the one evaluation path ({@link Runner#run(Runner.Source, Function, Policy, Sink)}, the same
 * runner as a single-process run: gates, timeouts, cancellation, cache), heartbeats its leases, and
 * records each attempt under its lease ({@link FleetQueue#record}: a late result of a lease claimed
 * again elsewhere is refused). It ends when no cell of its experiments is pending or leased, or when
 * cancelled (its unrecorded leases are given back), or when the store stays unreachable longer than
 * {@link Options#storeWait}.
 */
public final class FleetWorker {
    private FleetWorker() {}

    /**
     * How a worker runs. {@code experiment}: only that one (null: every queued experiment);
     * {@code slots}: cells at once (0: the experiment's {@code parallelism}); {@code lease}: how long a
     * claim holds without a heartbeat; {@code heartbeat}: how often leases are extended;
     * {@code storeWait}: how long the store may be unreachable before the worker gives up;
     * {@code poll}: how often a worker with nothing to claim (every open cell leased, or capped) looks again.
     */
    public record Options(
            String experiment, int slots, Duration lease, Duration heartbeat, Duration storeWait, Duration poll) {
        public static final Duration LEASE = Duration.ofSeconds(300), HEARTBEAT = Duration.ofSeconds(30);

        public Options {
            if (slots < 0 || slots > Policy.MAX_PARALLELISM)
                throw new IllegalArgumentException("slots must be from 1 to " + Policy.MAX_PARALLELISM);
            if (heartbeat.compareTo(lease) >= 0)
                throw new IllegalArgumentException("the heartbeat (" + heartbeat.toMillis()
                        + " ms) must be shorter than the lease (" + lease.toMillis() + " ms)");
        }

        public static Options defaults(String experiment, int slots) {
            return new Options(experiment, slots, LEASE, HEARTBEAT, Duration.ofMinutes(15), Duration.ofMillis(100));
        }
    }

    /**
     * What a worker did: {@code recorded} attempts ({@code completed} of them, the rest infrastructure
     * failures), {@code refused} late results of leases claimed again elsewhere, {@code released}
     * leases given back unrecorded, {@code reconnects} to the store after it was unreachable.
     */
    public record Result(
            String worker,
            int recorded,
            int completed,
            int refused,
            int released,
            long reconnects,
            Duration wall,
            double claimMillis,
            double recordMillis,
            double heartbeatMillis) {
        public String summary() {
            return String.format(
                    Locale.ROOT,
                    "worker %s: %d attempts recorded (%d completed, %d infrastructure failures), %d late results"
                            + " refused, %d leases given back, %d reconnects; %.1f s",
                    worker,
                    recorded,
                    completed,
                    recorded - completed,
                    refused,
                    released,
                    reconnects,
                    wall.toMillis() / 1000.0);
        }

        /** The store's cost per recorded attempt: its claims, its record and its share of the heartbeats, in ms. */
        public String profile() {
            int n = Math.max(1, recorded + refused);
            return String.format(
                    Locale.ROOT,
                    "store per cell: claim %.3f ms, record %.3f ms, heartbeat %.3f ms (total %.3f ms)",
                    claimMillis / n,
                    recordMillis / n,
                    heartbeatMillis / n,
                    (claimMillis + recordMillis + heartbeatMillis) / n);
        }
    }

    /** A queued experiment as this worker runs it: its spec, plan (by cell) and model-call cache. */
    private record Experiment(ExperimentSpec spec, Map<CellKey, Plan.Unit> units, Plan plan) {}

    /** A leased cell's unit: the evaluation job, and the lease its result is recorded under. */
    private record Leased(Job<Attempt> job, Lease lease) implements Job<Attempt> {
        @Override
        public String name() {
            return job.name();
        }

        @Override
        public String candidate() {
            return job.candidate();
        }

        @Override
        public int trial() {
            return job.trial();
        }

        @Override
        public Attempt run(RunModels models) throws Exception {
            return job.run(models);
        }

        @Override
        public Attempt failed(String error, RunModels models, long startedAtMillis, long durationMillis) {
            return job.failed(error, models, startedAtMillis, durationMillis);
        }

        @Override
        public boolean refusedByUsageWindow(Attempt result) {
            return job.refusedByUsageWindow(result);
        }
    }

    /** Runs a worker until its experiments have no open cell, or {@code cancellation}. */
    public static Result run(
            Supplier<Connection> connect,
            FleetStore store,
            Registry registry,
            Options o,
            PrintStream log,
            Cancellation cancellation) {
        long t0 = System.nanoTime();
        String id = workerId();
        try (FleetDb claims = new FleetDb(connect, o.storeWait(), log);
                FleetDb records = new FleetDb(connect, o.storeWait(), log);
                FleetDb beats = new FleetDb(connect, o.storeWait(), log)) {
            store.checkSchema(claims);
            List<Registered> queued = claims.tx(c -> FleetQueue.experiments(c, o.experiment()));
            if (o.experiment() != null && queued.isEmpty())
                throw new IllegalArgumentException("no experiment " + o.experiment()
                        + " is queued in the store (experiment run FILE --store URL --workers 0 queues one)");
            Map<String, Experiment> experiments = new LinkedHashMap<>();
            for (Registered r : queued) experiments.put(r.name(), plan(r, registry, claims));
            if (experiments.isEmpty()) {
                log.println("brokkr worker: no experiment is queued in the store; nothing to do");
                return new Result(id, 0, 0, 0, 0, 0, Duration.ofNanos(System.nanoTime() - t0), 0, 0, 0);
            }
            ExperimentSpec first = experiments.values().iterator().next().spec();
            int slots = o.slots() > 0 ? o.slots() : first.parallelism();
            Duration timeout = experiments.values().stream()
                    .map(e -> e.spec().cellTimeout())
                    .max(Duration::compareTo)
                    .orElseThrow();
            claims.tx(c -> {
                FleetQueue.workerStarted(c, id, host(), ProcessHandle.current().pid(), slots, o.experiment());
                return null;
            });
            log.println("brokkr worker " + id + ": " + slots + " slots, experiments "
                    + String.join(", ", experiments.keySet()) + "; lease "
                    + o.lease().toSeconds() + " s, heartbeat "
                    + o.heartbeat().toMillis() / 1000.0 + " s");

            Map<CellKey, Lease> held = new ConcurrentHashMap<>();
            AtomicInteger recorded = new AtomicInteger(),
                    completed = new AtomicInteger(),
                    refused = new AtomicInteger();
            Thread heartbeat = Thread.ofPlatform()
                    .daemon()
                    .name("fleet-heartbeat")
                    .start(() -> {
                        while (!Thread.currentThread().isInterrupted()) {
                            try {
                                Thread.sleep(o.heartbeat().toMillis());
                                Map<CellKey, Long> mine = beats.tx(c -> FleetQueue.heartbeat(c, id, o.lease()));
                                for (Lease l : held.values()) {
                                    Long e = mine.get(l.cell());
                                    if (e == null || e != l.epoch())
                                        log.println(
                                                "brokkr worker: the lease of a cell of " + l.experiment()
                                                        + " was claimed again elsewhere (it expired); its result will be refused");
                                }
                            } catch (InterruptedException e) {
                                return;
                            } catch (RuntimeException e) {
                                log.println("brokkr worker: heartbeat failed: " + e.getMessage());
                            }
                        }
                    });

            java.util.concurrent.LinkedBlockingQueue<Finished> queue = new java.util.concurrent.LinkedBlockingQueue<>();
            // Leases claimed for slots that are free now, not yet handed to the runner (it asks again at once).
            java.util.ArrayDeque<Lease> claimed = new java.util.ArrayDeque<>();
            Map<String, ExperimentSpec> specs = new LinkedHashMap<>();
            experiments.forEach((n, e) -> specs.put(n, e.spec()));
            FleetBudgets budgets = new FleetBudgets(specs);
            Runner.Source<Attempt> source = () -> {
                while (!cancellation.isCancelled()) {
                    if (claimed.isEmpty()) {
                        int free = Math.max(1, slots - (held.size() - claimed.size() - queue.size()));
                        // An experiment whose budget the store's attempts (every worker's) have reached gets no new
                        // cell; those in flight finish.
                        List<String> open = new ArrayList<>(experiments.keySet());
                        if (budgets.any()) {
                            Set<String> newly = new java.util.LinkedHashSet<>();
                            Set<String> spent = claims.tx(c -> budgets.refresh(c, newly));
                            for (String n : newly)
                                log.println("brokkr worker: experiment " + n + " reached its budget ("
                                        + budgets.describe(n) + "): no new cell of it is claimed");
                            open.removeAll(spent);
                            if (open.isEmpty()) return null;
                        }
                        Claim claim = claims.tx(c -> FleetQueue.claim(c, open, id, o.lease(), free));
                        for (Lease l : claim.leases()) {
                            held.put(l.cell(), l);
                            claimed.add(l);
                        }
                        if (claimed.isEmpty()) {
                            if (!claim.open()) return null;
                            Thread.sleep(o.poll().toMillis());
                            continue;
                        }
                    }
                    Lease l = claimed.poll();
                    return new Leased(
                            Runner.cell(experiments.get(l.experiment()).units().get(l.cell())), l);
                }
                return null;
            };
            // One writer records every result that finished while its previous transaction ran (a group commit),
            // so the store's commit is shared by the cells that finished together.
            java.util.concurrent.atomic.AtomicReference<Throwable> fatal =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Finished end = new Finished(null, null, null, false);
            Thread writer = Thread.ofPlatform().name("fleet-writer").start(() -> {
                List<Finished> batch = new ArrayList<>();
                boolean done = false;
                while (!done) {
                    try {
                        batch.add(queue.take());
                    } catch (InterruptedException e) {
                        return;
                    }
                    queue.drainTo(batch);
                    done = batch.removeIf(x -> x == end);
                    if (batch.isEmpty() || fatal.get() != null) {
                        batch.clear();
                        continue;
                    }
                    // A refused attempt first: its cell's re-run, recorded under the same lease, finishes later.
                    try {
                        for (Finished f : batch)
                            if (f.refused()
                                    && records.tx(c -> FleetQueue.recordRefused(
                                                    c, f.lease(), f.attempt(), store::writeAttempts))
                                            == Recorded.REFUSED)
                                log.println("brokkr worker: the refused attempt of " + f.name()
                                        + " is not written: its lease was claimed again elsewhere");
                    } catch (Throwable t) {
                        fatal.compareAndSet(null, t);
                    }
                    batch.removeIf(Finished::refused);
                    if (batch.isEmpty()) continue;
                    List<FleetQueue.Result> results = new ArrayList<>();
                    for (Finished f : batch)
                        results.add(new FleetQueue.Result(
                                f.lease(),
                                f.attempt().attempt().completed(),
                                experiments.get(f.lease().experiment()).spec().maxInfraRetries(),
                                f.attempt()));
                    try {
                        List<Recorded> r = records.tx(c -> FleetQueue.recordAll(c, id, results, store::writeAttempts));
                        for (int i = 0; i < batch.size(); i++) {
                            Finished f = batch.get(i);
                            held.remove(f.lease().cell(), f.lease());
                            switch (r.get(i)) {
                                case RECORDED, ALREADY -> {
                                    recorded.incrementAndGet();
                                    if (f.attempt().attempt().completed()) completed.incrementAndGet();
                                }
                                case REFUSED -> {
                                    refused.incrementAndGet();
                                    log.println("brokkr worker: refused the late result of " + f.name()
                                            + " (its lease, epoch " + f.lease().epoch()
                                            + ", expired and was claimed again); nothing of it is written");
                                }
                            }
                        }
                    } catch (Throwable t) {
                        fatal.compareAndSet(null, t);
                    }
                    batch.clear();
                }
            });
            Sink<Attempt> sink = new Sink<>() {
                @Override
                public void accept(int index, Job<Attempt> job, Attempt attempt) {
                    queue.add(
                            new Finished(((Leased) job).lease(), job.name(), ExperimentStore.prepare(attempt), false));
                }

                /** Stored as the embedded runner's sink stores it (StoreSink.acceptRefused); the cell stays leased. */
                @Override
                public void acceptRefused(int index, Job<Attempt> job, Attempt attempt) {
                    queue.add(new Finished(((Leased) job).lease(), job.name(), ExperimentStore.prepare(attempt), true));
                }

                @Override
                public Throwable fatal() {
                    return fatal.get();
                }
            };
            Function<ModelRef, Candidate> models = ref -> {
                for (Experiment e : experiments.values())
                    return e.plan().models().apply(ref);
                throw new IllegalStateException("no experiment");
            };
            // The store's model-call cache, shared by the fleet, for the experiments whose spec says cache: true.
            boolean cached =
                    experiments.values().stream().anyMatch(e -> e.spec().cache().enabled());
            ModelCache cache = cached ? store.openCache() : null;
            Policy.ModelCacheHook hook = cache == null
                    ? Policy.ModelCacheHook.NONE
                    : (job, role, model, gated) -> experiments
                                            .get(((Leased) job).lease().experiment())
                                            .spec()
                                            .cache()
                                            .covers(role, job.candidate())
                                    && model instanceof brokkr.provider.HttpProvider http
                            ? cache.around(http, gated, job.trial())
                            : gated;
            Policy policy = new Policy(slots, timeout, limits(first), hook, cancellation);
            int[] releasedCount = {0};
            try {
                Runner.run(source, models, policy, sink);
            } finally {
                queue.add(end);
                joinUninterruptibly(writer);
                heartbeat.interrupt();
                int released = 0;
                for (Lease l : held.values()) {
                    try {
                        records.tx(c -> {
                            FleetQueue.release(c, l);
                            return null;
                        });
                        released++;
                    } catch (RuntimeException e) {
                        log.println(
                                "brokkr worker: could not give back a lease (it expires by itself): " + e.getMessage());
                    }
                }
                try {
                    records.tx(c -> {
                        FleetQueue.workerStopped(c, id);
                        return null;
                    });
                } catch (RuntimeException e) {
                    // the worker's row shows its last heartbeat either way
                }
                held.clear();
                releasedCount[0] = released;
                if (cache != null) cache.close();
            }
            return new Result(
                    id,
                    recorded.get(),
                    completed.get(),
                    refused.get(),
                    releasedCount[0],
                    claims.reconnects() + records.reconnects() + beats.reconnects(),
                    Duration.ofNanos(System.nanoTime() - t0),
                    claims.busyMillis(),
                    records.busyMillis(),
                    beats.busyMillis());
        }
    }

    /** A finished cell's result waiting for the writer. */
    /** A finished attempt to record; {@code refused}: a usage window refused it, and its cell runs again under the lease. */
    private record Finished(Lease lease, String name, ExperimentStore.Prepared attempt, boolean refused) {}

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** Per-process provider limits: the spec's call rates (the fleet's concurrency caps are the queue's). */
    private static Map<String, Policy.Limit> limits(ExperimentSpec spec) {
        Map<String, Policy.Limit> out = new HashMap<>();
        spec.providerLimits().forEach((p, l) -> {
            if (l.ratePerSecond() > 0) out.put(p, new Policy.Limit(0, l.ratePerSecond()));
        });
        return out;
    }

    /**
     * Plans a queued experiment as this worker's registry sees it and checks that it plans every
     * registered cell: a worker whose benchmark data, Brokkr version or definitions differ makes other
     * content ids, and must not run (or record) cells under ids it did not compute.
     */
    private static Experiment plan(Registered r, Registry registry, FleetDb db) {
        Plan plan = Planner.open(Planner.plan(r.spec(), registry), r.spec().cache());
        Map<CellKey, Plan.Unit> units = new HashMap<>();
        for (Plan.Unit u : plan.units()) units.put(StoreSink.key(u), u);
        Set<CellKey> registered = db.tx(c -> FleetQueue.activeCells(c, r.name()));
        long unknown = registered.stream().filter(k -> !units.containsKey(k)).count();
        if (unknown > 0)
            throw new IllegalStateException("experiment " + r.name() + ": this worker plans " + units.size()
                    + " cells, and " + unknown + " of the " + registered.size()
                    + " queued cells are not among them (its benchmark data or Brokkr version differ from the"
                    + " registering process's); it runs none of them");
        return new Experiment(r.spec(), units, plan);
    }

    private static String workerId() {
        return host() + "-" + ProcessHandle.current().pid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown-host";
        }
    }
}
