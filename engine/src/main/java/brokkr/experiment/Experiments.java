package brokkr.experiment;

import brokkr.cost.Budget;
import brokkr.cost.PriceTable;
import brokkr.cost.Spending;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.ExperimentStore.CellState;
import brokkr.experiment.ExperimentStore.Prepared;
import brokkr.provider.HttpProvider;
import brokkr.run.Cancellation;
import brokkr.run.Job;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.run.Sink;
import brokkr.run.UsageWindows;
import brokkr.telemetry.GenAiTrace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs an experiment into a directory: its {@link Planner#plan plan} (cells = tasks × candidates ×
 * repetitions) through the one {@link Runner} into the directory's {@link ExperimentStore}
 * ({@link StoreSink}: each attempt committed as it finishes), at most {@code parallelism} cells at once
 * and within each model provider's limits.
 *
 * <p>Running the same experiment again resumes: cells with a completed attempt are skipped, cells
 * whose attempts all failed on infrastructure run again until they have failed
 * {@code 1 + max_infra_retries} times, and cells of a changed definition are new cells.
 */
public final class Experiments {
    private Experiments() {}

    /**
     * What a run did. {@code ran}: cells this run started; each ends {@code completed}, as an
     * {@code infrastructureFailures} (of which {@code notRecorded} could not be stored as they were:
     * their evidence is dropped and the cell is a failure to retry) or, when the run was cancelled,
     * {@code abandoned} in flight (nothing recorded). {@code notStarted}: cells a cancelled run never
     * got to. {@code exhausted}: cells left without a completed attempt because their infrastructure
     * retries are used up. {@code withoutVerdict}: cells of the spec with no completed attempt after the
     * run (exhausted, to retry, abandoned or not started); a run is complete when it is 0.
     * {@code cellsWall}: the time from the first cell's start to the last attempt's commit.
     * {@code meanSerializeMillis}: mean time to render an attempt's JSON (on the cells' threads, in
     * parallel); {@code meanCommitMillis}: mean time the single writer spent per attempt (insert plus
     * its share of a grouped commit); {@code commits}: transactions used.
     */
    public record Result(
            StoreLocation store,
            int cells,
            int skipped,
            int ran,
            int completed,
            int infrastructureFailures,
            int notRecorded,
            int exhausted,
            int withoutVerdict,
            boolean cancelled,
            int abandoned,
            int notStarted,
            Duration wall,
            Duration cellsWall,
            double meanSerializeMillis,
            double meanCommitMillis,
            long commits,
            Scorecard scorecard,
            String budget) {
        /** The experiment directory run into; null for a PostgreSQL store. */
        public Path dir() {
            return store instanceof StoreLocation.Directory d ? d.dir() : null;
        }

        /** Every cell of the spec has a verdict (a completed attempt). */
        public boolean complete() {
            return withoutVerdict == 0;
        }

        /** What the run did, for a person: the cells' counts and the wall time. */
        public String summary() {
            return String.format(
                            Locale.ROOT,
                            "%d cells: %d already done, %d run (%d completed, %d infrastructure failures%s), %d out of retries%s; %d without a verdict; %.1f s",
                            cells,
                            skipped,
                            ran,
                            completed,
                            infrastructureFailures,
                            notRecorded == 0 ? "" : ", " + notRecorded + " of them not recordable",
                            exhausted,
                            cancelled
                                    ? "; interrupted: " + abandoned + " in flight abandoned, " + notStarted
                                            + " not started"
                                    : "",
                            withoutVerdict,
                            wall.toMillis() / 1000.0)
                    + (budget == null ? "" : "; budget: " + budget);
        }

        /** The runner's own timings (the cells' wall time, the store's cost per attempt), for {@code --verbose} and benchmarks. */
        public String profile() {
            return String.format(
                    Locale.ROOT,
                    "cells %.1f s; store per attempt: serialize %.3f ms, writer %.3f ms (%d commits)",
                    cellsWall.toMillis() / 1000.0,
                    meanSerializeMillis,
                    meanCommitMillis,
                    commits);
        }
    }

    /** Runs {@code spec} into {@code dir} with the process's registry. */
    public static Result run(ExperimentSpec spec, Path dir) {
        return run(spec, dir, Registry.process());
    }

    public static Result run(ExperimentSpec spec, Path dir, Registry registry) {
        return run(spec, dir, registry, ProgressListener.NONE);
    }

    /** Runs {@code spec} into the store at {@code store} (a directory's or a PostgreSQL schema). */
    public static Result run(ExperimentSpec spec, StoreLocation store, Registry registry) {
        return run(spec, store, registry, ProgressListener.NONE, new Cancellation(), false);
    }

    /** As {@link #run(ExperimentSpec, Path, Registry, ProgressListener, Cancellation, boolean)}, into {@code store}. */
    public static Result run(
            ExperimentSpec spec,
            StoreLocation store,
            Registry registry,
            ProgressListener progress,
            Cancellation cancellation,
            boolean allowEndpointChange) {
        return run(spec, store, registry, progress, cancellation, allowEndpointChange, GenAiTrace.OFF);
    }

    /** As above, each cell traced by {@code trace} ({@link GenAiTrace}: spans of its episode, model and tool calls). */
    public static Result run(
            ExperimentSpec spec,
            StoreLocation store,
            Registry registry,
            ProgressListener progress,
            Cancellation cancellation,
            boolean allowEndpointChange,
            GenAiTrace trace) {
        return run(spec, store, registry, progress, cancellation, ExperimentStore::prepare, allowEndpointChange, trace);
    }

    public static Result run(ExperimentSpec spec, Path dir, Registry registry, ProgressListener progress) {
        return run(spec, dir, registry, progress, new Cancellation());
    }

    /**
     * Runs (or resumes) {@code spec} into {@code dir}, reporting progress to {@code progress}, until
     * every cell has run or {@code cancellation} is cancelled (or this thread interrupted; see
     * {@link Cancellation}). A listener that throws stops the run as a store failure does (no new
     * cells start; what was committed stays). {@link ExperimentSpec#progress()} is the caller's to
     * honour: the runner shows nothing itself.
     */
    public static Result run(
            ExperimentSpec spec, Path dir, Registry registry, ProgressListener progress, Cancellation cancellation) {
        return run(spec, dir, registry, progress, cancellation, false);
    }

    /**
     * As above; {@code allowEndpointChange}: resume into cells whose attempts were made against another
     * endpoint (a model's base URL) than this run reaches it at. Without it such a run is refused before
     * any cell runs ({@link EndpointChangedException}): the same model name on another server is not the
     * same model, and its results must not be mixed into the old cells silently.
     */
    public static Result run(
            ExperimentSpec spec,
            Path dir,
            Registry registry,
            ProgressListener progress,
            Cancellation cancellation,
            boolean allowEndpointChange) {
        return run(spec, StoreLocation.of(dir), registry, progress, cancellation, allowEndpointChange);
    }

    /** As above, rendering each attempt's JSON with {@code prepare} (tests make it fail). */
    static Result run(
            ExperimentSpec spec,
            Path dir,
            Registry registry,
            ProgressListener progress,
            Cancellation cancellation,
            Function<Attempt, Prepared> prepare) {
        return run(spec, StoreLocation.of(dir), registry, progress, cancellation, prepare, false, GenAiTrace.OFF);
    }

    private static Result run(
            ExperimentSpec spec,
            StoreLocation dir,
            Registry registry,
            ProgressListener progress,
            Cancellation cancellation,
            Function<Attempt, Prepared> prepare,
            boolean allowEndpointChange,
            GenAiTrace trace) {
        long t0 = System.nanoTime();
        // Files a model keeps (the Claude Code CLI's config directories) go under the experiment's directory.
        Plan plan = Planner.open(
                Planner.plan(
                        spec,
                        registry,
                        dir instanceof StoreLocation.Directory d ? registry.resolverIn(d.dir()) : registry.resolver()),
                spec.cache());
        // A cache_file that is not a Brokkr cache is refused before the experiment's directory is made.
        if (spec.cache().enabled() && spec.cache().file() != null)
            ModelCache.checkCacheFile(spec.cache().file());
        Runner.Outcome outcome;
        Result result;
        int recordedCompleted, recordedFailed, notRecorded;
        boolean interrupted = false;
        try (ExperimentStore store = ExperimentStore.openForRun(dir);
                ModelCache cache = spec.cache().enabled()
                        ? (spec.cache().file() != null
                                ? ModelCache.sharedFile(spec.cache().file())
                                : ModelCache.inStore(dir))
                        : null) {
            if (!allowEndpointChange) checkEndpoints(spec.name(), dir, store.query(), plan);
            Map<String, EnvironmentDef> envs = new LinkedHashMap<>();
            Map<String, AgentDef> agents = new LinkedHashMap<>();
            for (Plan.Unit u : plan.units()) {
                envs.putIfAbsent(u.cell().env().id(), u.cell().env());
                agents.putIfAbsent(u.cell().agent().id(), u.cell().agent());
            }
            store.register(
                    spec.name(),
                    spec.toJson(),
                    envs.values(),
                    agents.values(),
                    plan.units().stream().map(StoreSink::row).toList());
            Map<CellKey, CellState> states = store.query().cellStates();
            List<Plan.Unit> pending = new ArrayList<>();
            int skipped = 0;
            for (Plan.Unit u : plan.units()) {
                CellState st = states.getOrDefault(StoreSink.key(u), new CellState(0, 0));
                if (st.completed() > 0) skipped++;
                else if (st.infrastructureFailures() > spec.maxInfraRetries()) continue;
                else pending.add(u);
            }
            // The budget counts what the store already spent (a resumed run goes on from there) and stops handing out
            // cells once it is reached; on_budget: cancel also abandons those in flight.
            Budget budget = spec.costs().budget();
            Spending spending = new Spending(budget, spec.costs().prices(PriceTable.standard()));
            if (budget.limited()) for (Attempt a : store.query().attempts(true)) spending.add(a.evidence());
            boolean reachedBefore = spending.reached();
            java.util.Iterator<Plan.Unit> units = pending.iterator();
            Runner.Source<Attempt> source =
                    () -> units.hasNext() && !spending.reached() ? Runner.cell(units.next()) : null;
            long c0 = System.nanoTime();
            progress.started(spec.name(), plan.units().size(), skipped, pending.size());
            try (StoreSink sink = new StoreSink(store, prepare, progress);
                    UsageWindows.Subscription pauses = UsageWindows.process().listen(pauses(spec.name(), progress))) {
                try {
                    Sink<Attempt> spent = !budget.limited()
                            ? sink
                            : new Sink<>() {
                                @Override
                                public void accept(int index, Job<Attempt> job, Attempt a) {
                                    sink.accept(index, job, a);
                                    if (spending.add(a.evidence()) && budget.onBudget() == Budget.OnBudget.CANCEL)
                                        cancellation.cancel();
                                }

                                @Override
                                public void acceptRefused(int index, Job<Attempt> job, Attempt a) {
                                    sink.acceptRefused(index, job, a);
                                    spending.add(a.evidence());
                                }

                                @Override
                                public Throwable fatal() {
                                    return sink.fatal();
                                }
                            };
                    outcome = Runner.run(
                            source,
                            plan.models(),
                            policy(spec, cache, cancellation).withTrace(trace),
                            spent);
                } finally {
                    // The runner keeps the caller's interrupt; held back until the store is closed (its writer must
                    // finish first).
                    interrupted = Thread.interrupted();
                    sink.close();
                }
                recordedCompleted = sink.completed();
                recordedFailed = sink.failed();
                notRecorded = sink.notRecorded();
            } finally {
                progress.finished();
            }
            Duration cellsWall = Duration.ofNanos(System.nanoTime() - c0);
            store.checkFile();
            Map<CellKey, CellState> after = store.query().cellStates();
            int exhausted = 0, withoutVerdict = 0;
            for (Plan.Unit u : plan.units()) {
                CellState st = after.get(StoreSink.key(u));
                if (st.completed() == 0) withoutVerdict++;
                if (st.completed() == 0 && st.infrastructureFailures() > spec.maxInfraRetries()) exhausted++;
            }
            Scorecard scorecard = Scorecard.of(store.query());
            result = new Result(
                    dir,
                    plan.units().size(),
                    skipped,
                    outcome.started(),
                    recordedCompleted,
                    recordedFailed,
                    notRecorded,
                    exhausted,
                    withoutVerdict,
                    outcome.cancelled(),
                    outcome.abandoned(),
                    pending.size() - outcome.started(),
                    Duration.ofNanos(System.nanoTime() - t0),
                    cellsWall,
                    store.meanSerializeMillis(),
                    store.meanCommitMillis(),
                    store.commits(),
                    scorecard,
                    !budget.limited()
                            ? null
                            : spending.describe()
                                    + (spending.reached()
                                            ? " reached"
                                                    + (reachedBefore ? " before this run" : "")
                                                    + " (on_budget: "
                                                    + budget.onBudget().wire() + "): "
                                                    + (pending.size() - outcome.started()) + " of " + pending.size()
                                                    + " pending cells not started; a larger budget goes on"
                                            : ""));
        }
        if (interrupted) Thread.currentThread().interrupt(); // the caller's interrupt, kept once the store is closed
        return result;
    }

    /**
     * What running {@code spec} into {@code store} would cost, running nothing: its pending cells (those without a
     * verdict in the store, when it exists) priced from {@code typical} tokens at the experiment's prices.
     */
    public static CostEstimate dryRun(
            ExperimentSpec spec, StoreLocation store, Registry registry, CostEstimate.Typical typical) {
        Plan plan = Planner.plan(spec, registry);
        java.util.Set<CellKey> done = new java.util.HashSet<>();
        boolean absent = store instanceof StoreLocation.Directory d && !java.nio.file.Files.isDirectory(d.dir());
        if (!absent)
            try (ExperimentQuery q = ExperimentQuery.open(store)) {
                q.cellStates().forEach((k, st) -> {
                    if (st.completed() > 0) done.add(k);
                });
            }
        return CostEstimate.of(plan, done, typical, spec.costs().prices(PriceTable.standard()));
    }

    private static final System.Logger LOG = System.getLogger("brokkr.experiment");

    /** A usage window's pause, told to the run's progress listener and logged (a run without a terminal shows it too). */
    static UsageWindows.Listener pauses(String experiment, ProgressListener progress) {
        return new UsageWindows.Listener() {
            @Override
            public void paused(UsageWindows.Pause p) {
                LOG.log(System.Logger.Level.WARNING, "experiment {0}: {1}", experiment, p.describe());
                progress.paused(p.describe(), p.until());
            }

            @Override
            public void resumed(UsageWindows.Pause p) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "experiment {0}: resumed after the {1} window''s reset",
                        experiment,
                        p.window());
                progress.resumed();
            }
        };
    }

    /** A resume refused: stored cells of the plan were made against another endpoint than this run's. */
    public static final class EndpointChangedException extends IllegalArgumentException {
        public EndpointChangedException(String message) {
            super(message);
        }
    }

    /**
     * Refuses a run whose models are reached at another base URL than the stored attempts of its cells
     * were made against (recorded per role on every attempt, {@code Evidence.endpoints}), naming the first
     * such model, both URLs and how many cells it concerns. Attempts from before endpoints were recorded
     * say nothing and pass.
     */
    static void checkEndpoints(String name, StoreLocation dir, ExperimentQuery query, Plan plan) {
        Map<CellKey, List<Map<String, String>>> stored = query.endpointsByCell();
        if (stored.isEmpty()) return;
        int cells = 0;
        String first = null;
        for (Plan.Unit u : plan.units()) {
            List<Map<String, String>> was = stored.get(StoreSink.key(u));
            if (was == null) continue;
            Map<String, String> now = Planner.endpoints(plan, u);
            String differs = null;
            for (Map<String, String> w : was) {
                for (var e : w.entrySet()) {
                    String current = now.get(e.getKey());
                    if (current != null && !current.equals(e.getValue()) && differs == null)
                        differs = "candidate " + u.candidate() + "'s " + e.getKey() + " model was reached at "
                                + e.getValue() + ", this run reaches it at " + current;
                }
            }
            if (differs == null) continue;
            cells++;
            if (first == null) first = differs;
        }
        if (cells == 0) return;
        throw new EndpointChangedException("experiment " + name + " in " + dir.display() + ": " + cells
                + " stored cell(s) were made against another endpoint (" + first
                + "); resuming would mix two servers' results under one candidate. Give --allow-endpoint-change"
                + " to resume into them anyway, or run into another --dir");
    }

    /**
     * How an experiment's cells run: its parallelism, cell timeout and provider limits, and the model-call
     * cache in front of the models of the roles its spec caches (the cache key's trial is the cell's, from 1).
     */
    static Policy policy(ExperimentSpec spec, ModelCache cache, Cancellation cancellation) {
        Map<String, Policy.Limit> limits = new LinkedHashMap<>();
        spec.providerLimits().forEach((p, l) -> limits.put(p, new Policy.Limit(l.concurrency(), l.ratePerSecond())));
        Policy.ModelCacheHook hook = cache == null
                ? Policy.ModelCacheHook.NONE
                : (job, role, model, gated) ->
                        spec.cache().covers(role, job.candidate()) && model instanceof HttpProvider http
                                ? cache.around(http, gated, job.trial())
                                : gated;
        // Each cell's candidate gets a fresh meter of the per-cell budget, priced as the experiment prices.
        brokkr.cost.CellBudget perCell = spec.costs().perCell();
        PriceTable prices = perCell.limited() ? spec.costs().prices(PriceTable.standard()) : null;
        return new Policy(
                spec.parallelism(), spec.cellTimeout(), limits, hook, cancellation, () -> perCell.meter(prices));
    }

    /** The scorecard of the experiment last run in {@code dir}. */
    public static Scorecard scorecard(Path dir) {
        return scorecard(StoreLocation.of(dir));
    }

    /** The scorecard of the experiment in the store at {@code store} (a directory's or a PostgreSQL schema). */
    public static Scorecard scorecard(StoreLocation store) {
        try (ExperimentQuery query = ExperimentQuery.open(store)) {
            return Scorecard.of(query);
        }
    }
}
