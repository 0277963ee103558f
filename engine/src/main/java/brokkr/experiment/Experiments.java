package brokkr.experiment;

import brokkr.conversation.Candidate;
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
import brokkr.value.PyDict;
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
     * What a run did. {@code exhausted}: cells left without a completed attempt because their
     * infrastructure retries are used up. {@code cellsWall}: the time from the first cell's start to
     * the last attempt's commit. {@code meanSerializeMillis}: mean time to render an attempt's JSON
     * (on the cells' threads, in parallel); {@code meanCommitMillis}: mean time the single writer spent
     * per attempt (insert plus its share of a grouped commit); {@code commits}: transactions used.
     */
    public record Result(Path dir, int cells, int skipped, int ran, int completed, int infrastructureFailures,
                         int exhausted, Duration wall, Duration cellsWall, double meanSerializeMillis, double meanCommitMillis, long commits,
                         Scorecard scorecard) {
        public String summary() {
            return String.format(Locale.ROOT,
                    "%d cells: %d already done, %d run (%d completed, %d infrastructure failures), %d out of retries; %.1f s (cells %.1f s); store per attempt: serialize %.3f ms, writer %.3f ms (%d commits)",
                    cells, skipped, ran, completed, infrastructureFailures, exhausted, wall.toMillis() / 1000.0, cellsWall.toMillis() / 1000.0,
                    meanSerializeMillis, meanCommitMillis, commits);
        }
    }

    /** One cell of the plan: what to evaluate and how the store knows it. */
    public record Planned(Evaluation.Cell cell, ExperimentStore.Cell row) {}

    public static Result run(ExperimentSpec spec, Path dir) { return run(spec, dir, Registry.load()); }

    public static Result run(ExperimentSpec spec, Path dir, Registry registry) { return run(spec, dir, registry, ProgressListener.NONE); }

    /**
     * Runs (or resumes) {@code spec} into {@code dir}, reporting progress to {@code progress}. A listener
     * that throws stops the run as a store failure does (no new cells start; what was committed stays).
     * {@link ExperimentSpec#progress()} is the caller's to honour: the runner shows nothing itself.
     */
    public static Result run(ExperimentSpec spec, Path dir, Registry registry, ProgressListener progress) {
        long t0 = System.nanoTime();
        List<Planned> plan = plan(spec, registry);
        Function<ModelRef, Candidate> models = models(spec, registry, plan);
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
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
            AtomicInteger completed = new AtomicInteger(), failed = new AtomicInteger();
            long c0 = System.nanoTime();
            progress.started(spec.name(), plan.size(), skipped, pending.size());
            try {
                execute(spec, store, pending, models, progress, completed, failed);
            } finally {
                progress.finished();
            }
            Duration cellsWall = Duration.ofNanos(System.nanoTime() - c0);
            store.checkFile();
            Map<CellKey, CellState> after = store.query().cellStates();
            int exhausted = 0;
            for (Planned p : plan) {
                CellState st = after.get(p.row().key());
                if (st.completed() == 0 && st.infrastructureFailures() > spec.maxInfraRetries()) exhausted++;
            }
            Scorecard scorecard = Scorecard.of(store.query());
            return new Result(dir, plan.size(), skipped, pending.size(), completed.get(), failed.get(), exhausted,
                    Duration.ofNanos(System.nanoTime() - t0), cellsWall, store.meanSerializeMillis(), store.meanCommitMillis(),
                    store.commits(), scorecard);
        }
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
                    env = provider.environment(task, spec.models());
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
        Function<ModelRef, Candidate> resolve = ref -> cache.computeIfAbsent(ref, r -> gates
                .computeIfAbsent(r.provider(), p -> new ProviderGate(spec.providerLimits().get(p)))
                .wrap(registry.model(r.provider()).create(r)));
        Set<List<Object>> checked = new HashSet<>();
        for (Planned p : plan) {
            Map<String, ModelRef> roles = new LinkedHashMap<>(p.cell().env().models());
            roles.put(Evidence.AGENT, p.cell().agent().modelRef());
            roles.forEach((role, ref) -> {
                if (!ref.provider().equals(BenchmarkProvider.SCRIPTED)) {
                    resolve.apply(ref);
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
     * Runs the pending cells: a virtual thread per cell, at most {@code parallelism} evaluating at once;
     * a finished cell renders its attempt's JSON, hands it to the single writer and frees its slot, so
     * commits never hold up evaluation. The writer commits every attempt waiting for it in one
     * transaction (group commit). A store failure is fatal: no new cells start and it is rethrown.
     */
    private static void execute(ExperimentSpec spec, ExperimentStore store, List<Planned> pending, Function<ModelRef, Candidate> models,
                                ProgressListener progress, AtomicInteger completed, AtomicInteger failed) {
        Semaphore slots = new Semaphore(spec.parallelism());
        AtomicReference<RuntimeException> fatal = new AtomicReference<>();
        LinkedBlockingQueue<Prepared> queue = new LinkedBlockingQueue<>();
        Prepared endOfRun = new Prepared(null, null, null, 0);
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
                    for (Attempt a : store.recordAll(batch)) {
                        (a.completed() ? completed : failed).incrementAndGet();
                        progress.attemptFinished(a);
                    }
                } catch (RuntimeException e) {
                    fatal.compareAndSet(null, e);
                }
                batch.clear();
            }
        });
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Planned p : pending) {
                slots.acquireUninterruptibly();
                if (fatal.get() != null) { slots.release(); break; }
                pool.execute(() -> {
                    try {
                        Attempt a = runCell(p, models, spec.cellTimeout());
                        if (a != null) queue.add(ExperimentStore.prepare(a));
                    } catch (RuntimeException e) {
                        fatal.compareAndSet(null, e);
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        queue.add(endOfRun);
        try {
            writer.join();
        } catch (InterruptedException e) {
            writer.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the last attempts were being committed", e);
        }
        if (fatal.get() != null) throw fatal.get();
    }

    /** Evaluates one cell on its own virtual thread so that a cell over its time limit can be abandoned. */
    private static Attempt runCell(Planned p, Function<ModelRef, Candidate> models, Duration timeout) {
        Evaluation.Recorder rec = new Evaluation.Recorder();
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
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
