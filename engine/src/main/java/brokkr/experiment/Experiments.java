package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.ExperimentStore.CellState;
import brokkr.experiment.ExperimentStore.Prepared;
import brokkr.provider.HttpProvider;
import brokkr.value.PyDict;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs an experiment into a directory: cells = tasks × candidates × repetitions, each one
 * {@link Evaluation#evaluate} on a virtual thread, at most {@code parallelism} at once and within each
 * model provider's limits, each attempt committed to the directory's {@link ExperimentStore} as it finishes.
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
    public record Result(Path dir, int cells, int skipped, int ran, int completed, int infrastructureFailures, int notRecorded,
                         int exhausted, int withoutVerdict, boolean cancelled, int abandoned, int notStarted,
                         Duration wall, Duration cellsWall, double meanSerializeMillis, double meanCommitMillis, long commits,
                         Scorecard scorecard) {
        /** Every cell of the spec has a verdict (a completed attempt). */
        public boolean complete() { return withoutVerdict == 0; }

        /** What the run did, for a person: the cells' counts and the wall time. */
        public String summary() {
            return String.format(Locale.ROOT,
                    "%d cells: %d already done, %d run (%d completed, %d infrastructure failures%s), %d out of retries%s; %d without a verdict; %.1f s",
                    cells, skipped, ran, completed, infrastructureFailures, notRecorded == 0 ? "" : ", " + notRecorded + " of them not recordable",
                    exhausted, cancelled ? "; interrupted: " + abandoned + " in flight abandoned, " + notStarted + " not started" : "",
                    withoutVerdict, wall.toMillis() / 1000.0);
        }

        /** The runner's own timings (the cells' wall time, the store's cost per attempt), for {@code --verbose} and benchmarks. */
        public String profile() {
            return String.format(Locale.ROOT, "cells %.1f s; store per attempt: serialize %.3f ms, writer %.3f ms (%d commits)",
                    cellsWall.toMillis() / 1000.0, meanSerializeMillis, meanCommitMillis, commits);
        }
    }

    /** One cell of the plan: what to evaluate and how the store knows it. */
    public record Planned(Evaluation.Cell cell, ExperimentStore.Cell row) {}

    public static Result run(ExperimentSpec spec, Path dir) { return run(spec, dir, Registry.load()); }

    public static Result run(ExperimentSpec spec, Path dir, Registry registry) { return run(spec, dir, registry, ProgressListener.NONE); }

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
    public static Result run(ExperimentSpec spec, Path dir, Registry registry, ProgressListener progress, Cancellation cancellation) {
        return run(spec, dir, registry, progress, cancellation, ExperimentStore::prepare);
    }

    /** As above, rendering each attempt's JSON with {@code prepare} (tests make it fail). */
    static Result run(ExperimentSpec spec, Path dir, Registry registry, ProgressListener progress, Cancellation cancellation,
                      Function<Attempt, Prepared> prepare) {
        long t0 = System.nanoTime();
        List<Planned> plan = plan(spec, registry);
        Function<ModelRef, Candidate> models = models(spec, registry, plan);
        Outcome outcome;
        Result result;
        try (ExperimentStore store = ExperimentStore.openForRun(dir);
             ModelCache cache = spec.cache().enabled() ? ModelCache.open(spec.cache().file() != null ? spec.cache().file() : ExperimentStore.file(dir)) : null) {
            Map<String, EnvironmentDef> envs = new LinkedHashMap<>();
            Map<String, AgentDef> agents = new LinkedHashMap<>();
            for (Planned p : plan) {
                envs.putIfAbsent(p.row().key().environmentId(), p.cell().env());
                agents.putIfAbsent(p.row().key().agentId(), p.cell().agent());
            }
            store.register(spec.name(), spec.toJson(), envs.values(), agents.values(), plan.stream().map(Planned::row).toList());
            Map<CellKey, CellState> states = store.query().cellStates();
            List<Planned> pending = new ArrayList<>();
            int skipped = 0;
            for (Planned p : plan) {
                CellState st = states.getOrDefault(p.row().key(), new CellState(0, 0));
                if (st.completed() > 0) skipped++;
                else if (st.infrastructureFailures() > spec.maxInfraRetries()) continue;
                else pending.add(p);
            }
            long c0 = System.nanoTime();
            progress.started(spec.name(), plan.size(), skipped, pending.size());
            try {
                outcome = execute(spec, store, pending, models, cache, progress, cancellation, prepare);
            } finally {
                progress.finished();
            }
            Duration cellsWall = Duration.ofNanos(System.nanoTime() - c0);
            store.checkFile();
            Map<CellKey, CellState> after = store.query().cellStates();
            int exhausted = 0, withoutVerdict = 0;
            for (Planned p : plan) {
                CellState st = after.get(p.row().key());
                if (st.completed() == 0) withoutVerdict++;
                if (st.completed() == 0 && st.infrastructureFailures() > spec.maxInfraRetries()) exhausted++;
            }
            Scorecard scorecard = Scorecard.of(store.query());
            result = new Result(dir, plan.size(), skipped, outcome.started(), outcome.completed(), outcome.failed(), outcome.notRecorded(),
                    exhausted, withoutVerdict, outcome.cancelled(), outcome.abandoned(), pending.size() - outcome.started(),
                    Duration.ofNanos(System.nanoTime() - t0), cellsWall, store.meanSerializeMillis(), store.meanCommitMillis(),
                    store.commits(), scorecard);
        }
        if (outcome.interrupted()) Thread.currentThread().interrupt(); // the caller's interrupt, kept once the store is closed
        return result;
    }

    /**
     * The cells of a spec in order (domain, task, candidate, repetition), with definitions resolved by
     * the providers. A provider's refusal (unknown split or task, a model role it needs but the spec
     * lacks) and a cell named twice are {@link ExperimentSpec.SpecException}s.
     */
    public static List<Planned> plan(ExperimentSpec spec, Registry registry) {
        List<Planned> out = new ArrayList<>();
        Set<CellKey> seen = new HashSet<>();
        for (ExperimentSpec.DomainSpec d : spec.domains()) {
            BenchmarkProvider provider = registry.benchmark(d.name());
            List<String> tasks;
            try {
                tasks = d.split() != null ? provider.tasks(d.split()) : d.taskIds();
            } catch (IllegalArgumentException e) {
                throw new ExperimentSpec.SpecException("domain " + d.name() + ": " + e.getMessage());
            }
            for (String task : tasks) {
                EnvironmentDef env;
                try {
                    env = provider.environment(task, spec.models(), d.options());
                } catch (IllegalArgumentException e) {
                    throw new ExperimentSpec.SpecException("domain " + d.name() + ", task " + task + ": " + e.getMessage());
                }
                String envId = env.id();
                for (ExperimentSpec.CandidateSpec c : spec.candidates()) {
                    AgentDef agent = c.agentDef();
                    String agentId = agent.id();
                    for (int r = 0; r < spec.repetitions(); r++) {
                        CellKey key = new CellKey(envId, agentId, r);
                        if (!seen.add(key)) {
                            throw new ExperimentSpec.SpecException("domain " + d.name() + ", task " + task + " is named twice");
                        }
                        out.add(new Planned(new Evaluation.Cell(provider, env, agent, c.systemPrompt(), r),
                                new ExperimentStore.Cell(key, c.label(), provider.name(), task, true)));
                    }
                }
            }
        }
        return out;
    }

    /** The scorecard of the experiment last run in {@code dir}. */
    public static Scorecard scorecard(Path dir) {
        try (ExperimentQuery query = ExperimentQuery.open(dir)) {
            return Scorecard.of(query);
        }
    }

    /**
     * One candidate object per model reference, behind its provider's gate. Fails early on an unknown
     * provider, and on a scripted model the benchmark does not know (asked once per benchmark, role
     * and model, for the first task that uses it).
     */
    private static Function<ModelRef, Candidate> models(ExperimentSpec spec, Registry registry, List<Planned> plan) {
        Map<String, ProviderGate> gates = new ConcurrentHashMap<>();
        Map<ModelRef, Candidate> cache = new ConcurrentHashMap<>();
        Function<ModelRef, Candidate> resolve = ref -> cache.computeIfAbsent(ref, r -> {
            Candidate model = registry.model(r.provider()).create(r);
            return new Gated(model, gates.computeIfAbsent(r.provider(), p -> new ProviderGate(spec.providerLimits().get(p))).wrap(model));
        });
        Set<List<Object>> checked = new HashSet<>();
        for (Planned p : plan) {
            Map<String, ModelRef> roles = new LinkedHashMap<>(p.cell().env().models());
            roles.put(Evidence.AGENT, p.cell().agent().modelRef());
            roles.forEach((role, ref) -> {
                if (!ref.provider().equals(BenchmarkProvider.SCRIPTED)) {
                    Candidate c = resolve.apply(ref);
                    if (spec.cache().covers(role, p.row().candidate()) && !(c instanceof Gated g && g.model() instanceof HttpProvider)) {
                        throw new ExperimentSpec.SpecException("cache: the " + role + " model " + ref + " of candidate " + p.row().candidate()
                                + " is not an HTTP model, whose exact requests the cache is keyed by");
                    }
                } else if (checked.add(List.of(p.cell().provider().name(), role, ref))) {
                    try {
                        p.cell().provider().scripted(role, ref, p.cell().env());
                    } catch (IllegalArgumentException e) {
                        throw new ExperimentSpec.SpecException("domain " + p.cell().provider().name() + ": " + e.getMessage());
                    }
                }
            });
        }
        return resolve;
    }

    /**
     * A cell's recorder, with the model-call cache in front of the models of the roles the spec caches
     * for this cell's candidate; the cache key's trial is the cell's (from 1).
     */
    private static Evaluation.Recorder recorder(ExperimentSpec.CacheSpec spec, ModelCache cache, Planned p) {
        if (cache == null) return new Evaluation.Recorder();
        int trial = p.row().key().repetition() + 1;
        return new Evaluation.Recorder((role, model) -> spec.covers(role, p.row().candidate()) && model instanceof Gated g
                && g.model() instanceof HttpProvider http ? cache.around(http, g, trial) : model);
    }

    /** A model behind its provider's gate, still known as itself (the cache reads its requests before they are sent). */
    private record Gated(Candidate model, Candidate gated) implements Candidate {
        @Override public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure { return gated.next(history, tools); }
    }

    /** How the cells of one run ended. */
    private record Outcome(int started, int completed, int failed, int notRecorded, int abandoned, boolean cancelled, boolean interrupted) {}

    /** How often a cancelled run's waits look at their cancellation. */
    private static final long POLL_MILLIS = 20;

    /**
     * Runs the pending cells: a virtual thread per cell, at most {@code parallelism} evaluating at once;
     * a finished cell renders its attempt's JSON, hands it to the single writer and frees its slot, so
     * commits never hold up evaluation. The writer commits every attempt waiting for it in one
     * transaction (group commit). A store failure is fatal: no new cells start and it is rethrown.
     * Every started cell ends as exactly one committed attempt, unless the run is cancelled while it is
     * in flight: then it is interrupted and nothing of it is recorded.
     */
    private static Outcome execute(ExperimentSpec spec, ExperimentStore store, List<Planned> pending, Function<ModelRef, Candidate> models,
                                   ModelCache cache, ProgressListener progress, Cancellation cancellation, Function<Attempt, Prepared> prepare) {
        Semaphore slots = new Semaphore(spec.parallelism());
        AtomicReference<Throwable> fatal = new AtomicReference<>();
        AtomicInteger completed = new AtomicInteger(), failed = new AtomicInteger(), notRecorded = new AtomicInteger(), abandoned = new AtomicInteger();
        LinkedBlockingQueue<Prepared> queue = new LinkedBlockingQueue<>();
        Prepared endOfRun = new Prepared(null, null, null, Map.of(), 0);
        Thread writer = Thread.ofPlatform().name("experiment-writer").start(() -> {
            List<Prepared> batch = new ArrayList<>();
            boolean end = false;
            while (!end) {
                try {
                    batch.add(queue.take());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                queue.drainTo(batch);
                end = batch.removeIf(x -> x == endOfRun);
                if (fatal.get() != null) { batch.clear(); continue; }
                try {
                    for (Attempt a : commit(store, batch, prepare, notRecorded)) {
                        (a.completed() ? completed : failed).incrementAndGet();
                        progress.attemptFinished(a);
                    }
                } catch (Throwable e) {
                    fatal.compareAndSet(null, e);
                }
                batch.clear();
            }
        });
        boolean interrupted = false, cancelled = false;
        int started = 0;
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (Planned p : pending) {
                if (!acquire(slots, cancellation)) { cancelled = true; interrupted = Thread.interrupted() || interrupted; break; }
                if (fatal.get() != null) { slots.release(); break; }
                started++;
                pool.execute(() -> {
                    try {
                        Attempt a = runCell(p, models, recorder(spec.cache(), cache, p), spec.cellTimeout());
                        if (a == null) abandoned.incrementAndGet();
                        else queue.add(prepared(p, a, prepare, notRecorded));
                    } catch (Throwable t) {
                        // Nothing escapes a cell: anything else that went wrong is its infrastructure failure,
                        // and a cell that cannot even record that stops the run rather than vanish.
                        try {
                            queue.add(prepared(p, harnessFailure(p, t, System.currentTimeMillis(), 0), prepare, notRecorded));
                        } catch (Throwable worse) {
                            fatal.compareAndSet(null, worse);
                        }
                    } finally {
                        slots.release();
                    }
                });
            }
            pool.shutdown();
            while (!cancelled) {
                try {
                    if (pool.awaitTermination(POLL_MILLIS, TimeUnit.MILLISECONDS)) break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    cancelled = true;
                }
                if (cancellation.isCancelled()) cancelled = true;
            }
        } finally {
            if (cancelled) pool.shutdownNow(); // interrupts the cells in flight: runCell abandons them
            interrupted |= awaitUninterruptibly(pool);
            queue.add(endOfRun);
            interrupted |= joinUninterruptibly(writer);
        }
        if (fatal.get() instanceof RuntimeException re) throw re;
        if (fatal.get() instanceof Error err) throw err;
        return new Outcome(started, completed.get(), failed.get(), notRecorded.get(), abandoned.get(), cancelled, interrupted);
    }

    /** Takes a cell slot; false when the run was cancelled (or this thread interrupted) first. */
    private static boolean acquire(Semaphore slots, Cancellation cancellation) {
        try {
            while (!cancellation.isCancelled()) {
                if (slots.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) return true;
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // read back by the caller
            return false;
        }
    }

    private static boolean awaitUninterruptibly(ExecutorService pool) {
        boolean interrupted = false;
        while (true) {
            try {
                if (pool.awaitTermination(1, TimeUnit.DAYS)) return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    private static boolean joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    /**
     * The attempt rendered for the store, or, when rendering it fails (an OutOfMemoryError on a huge
     * transcript, a value the JSON writer refuses), an infrastructure failure of the cell saying so: a
     * cell is never dropped because its record could not be made.
     */
    private static Prepared prepared(Planned p, Attempt a, Function<Attempt, Prepared> prepare, AtomicInteger notRecorded) {
        try {
            return prepare.apply(a);
        } catch (Throwable t) {
            notRecorded.incrementAndGet();
            return ExperimentStore.prepare(notRecordable(a, t));
        }
    }

    /** What is kept of an attempt that could not be recorded: its cell, timing and usage, and why. */
    private static Attempt notRecordable(Attempt a, Throwable t) {
        Evidence kept = new Evidence(null, null, null, null, null, List.of(), a.evidence().usage(), a.evidence().timings(), null);
        return new Attempt(0, a.environmentId(), a.agentId(), a.repetition(), a.taskId(), Attempt.Status.INFRASTRUCTURE_FAILURE, List.of(), 0.0,
                null, kept, "not recorded: " + t + " while storing the " + a.status().wire()
                + " attempt; its evidence is dropped and the cell runs again on resume", a.startedAtMillis(), a.durationMillis());
    }

    private static Attempt harnessFailure(Planned p, Throwable t, long started, long durationMillis) {
        return Evaluation.failure(p.cell(), Evidence.EMPTY, "harness error: " + t, started, durationMillis);
    }

    /**
     * Commits a batch. When the batch fails because of one attempt rather than the store (an Error
     * such as OutOfMemoryError while binding it, or SQLite's string-or-blob-too-big), the attempts are
     * committed one by one and each one that fails alone is replaced by its not-recordable failure.
     */
    private static List<Attempt> commit(ExperimentStore store, List<Prepared> batch, Function<Attempt, Prepared> prepare, AtomicInteger notRecorded) {
        try {
            return store.recordAll(batch);
        } catch (Throwable t) {
            if (!attemptsFault(t)) throw t;
        }
        List<Attempt> out = new ArrayList<>();
        for (Prepared x : batch) {
            try {
                out.addAll(store.recordAll(List.of(x)));
            } catch (Throwable t) {
                if (!attemptsFault(t)) throw t;
                notRecorded.incrementAndGet();
                out.addAll(store.recordAll(List.of(ExperimentStore.prepare(notRecordable(x.attempt(), t)))));
            }
        }
        return out;
    }

    /** A failure that one attempt's size or content caused, as opposed to the store's (I/O, a vanished file, a constraint). */
    private static boolean attemptsFault(Throwable t) {
        if (t instanceof Error) return true;
        return t instanceof ExperimentStore.StoreException se && se.getCause() instanceof SQLiteException sq
                && sq.getResultCode() == SQLiteErrorCode.SQLITE_TOOBIG;
    }

    /**
     * Evaluates one cell on its own virtual thread so that a cell over its time limit can be abandoned.
     * Null when this thread was interrupted (the run was cancelled): the evaluation is cancelled and
     * whatever it produces is dropped.
     */
    private static Attempt runCell(Planned p, Function<ModelRef, Candidate> models, Evaluation.Recorder rec, Duration timeout) {
        long started = System.currentTimeMillis();
        long t0 = System.nanoTime();
        FutureTask<Attempt> task = new FutureTask<>(() -> Evaluation.evaluate(p.cell(), models, rec));
        Thread.ofVirtual().name("cell-" + p.row().taskId() + "-" + p.row().candidate() + "-" + p.row().key().repetition()).start(task);
        try {
            return task.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            return Evaluation.failure(p.cell(), Evaluation.evidence(null, null, null, rec, PyDict.empty(), null),
                    "timeout: the cell ran longer than " + timeout.toSeconds() + " s", started, (System.nanoTime() - t0) / 1_000_000);
        } catch (ExecutionException e) {
            return Evaluation.failure(p.cell(), Evaluation.evidence(null, null, null, rec, PyDict.empty(), null),
                    "harness error: " + e.getCause(), started, (System.nanoTime() - t0) / 1_000_000);
        } catch (InterruptedException e) {
            task.cancel(true);
            return null;
        }
    }
}
