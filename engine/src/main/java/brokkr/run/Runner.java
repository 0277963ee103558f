package brokkr.run;

import brokkr.conversation.Candidate;
import brokkr.eval.Attempt;
import brokkr.eval.Branches;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.telemetry.GenAiTrace;
import brokkr.value.PyDict;
import io.opentelemetry.api.common.Attributes;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The one runner under every face: experiments, {@code tau2 run}, {@code bfcl run}, {@code loop},
 * {@code parallel}, {@code %run}, probes, branches and regrades all submit their units here, so each of
 * them gets the same threads, per-provider gates, timeouts, cancellation and model cache. It is also
 * the only caller of {@link Evaluation#evaluate} (an architecture rule): a cell is evaluated nowhere else.
 *
 * <p>Each unit runs on a virtual thread of its own, at most {@link Policy#parallelism()} at once, and
 * ends as exactly one result handed to the sink (a unit over its time limit or whose code threw ends as
 * its {@link Job#failed} result), unless the run is cancelled while it is in flight: then it is
 * interrupted and nothing of it reaches the sink.
 */
public final class Runner {
    private Runner() {}

    /**
     * How a run went. {@code started}: units begun; {@code delivered}: results the sink took;
     * {@code abandoned}: units in flight when the run was cancelled (nothing delivered);
     * {@code notStarted}: units a cancelled or failed run never began; {@code interrupted}: the calling
     * thread was interrupted (its status is set again on return).
     */
    public record Outcome(
            int units,
            int started,
            int delivered,
            int abandoned,
            int notStarted,
            boolean cancelled,
            boolean interrupted) {}

    /** Runs a plan's cells into {@code sink}. */
    public static Outcome run(Plan plan, Policy policy, Sink<Attempt> sink) {
        return run(plan.units().stream().map(Runner::cell).toList(), plan.models(), policy, sink);
    }

    /** Every attempt of a plan's cells, in plan order (nothing stored). */
    public static List<Attempt> attempts(Plan plan, Policy policy) {
        Sink.Ordered<Attempt> all = Sink.memory();
        run(plan, policy, all);
        if (Thread.currentThread().isInterrupted()) throw new IllegalStateException("interrupted");
        return all.results();
    }

    /** A cell as a unit: {@link Evaluation#evaluate} of it (a branch from its checkpoint), recorded with the unit's models. */
    public static Job<Attempt> cell(Plan.Unit u) {
        return new Job<>() {
            @Override
            public String name() {
                return u.name();
            }

            @Override
            public String candidate() {
                return u.candidate();
            }

            @Override
            public int trial() {
                return u.cell().repetition() + 1;
            }

            @Override
            public Attempt run(RunModels models) {
                Evaluation.Recorder recorder = models.recorder();
                if (u.branch() == null) return Evaluation.evaluate(u.cell(), models.models(), recorder);
                Branches.Branch b = u.branch();
                Attempt a = Evaluation.evaluate(
                        u.cell(), Branches.setup(b), Branches.protocol(b), models.models(), recorder);
                return Branches.withCheckpointCalls(a, b.checkpoint());
            }

            @Override
            public Attributes traceAttributes() {
                return CellTrace.attributes(u, trial());
            }

            @Override
            public Attributes traceOutcome(Attempt a) {
                return CellTrace.outcome(a);
            }

            @Override
            public boolean refusedByUsageWindow(Attempt a) {
                return !a.completed() && UsageWindows.refusedError(a.error());
            }

            @Override
            public Attempt failed(String error, RunModels models, long startedAtMillis, long durationMillis) {
                return Evaluation.failure(
                        u.cell(),
                        Evaluation.evidence(null, null, null, models.recorder(), PyDict.empty(), null),
                        error,
                        startedAtMillis,
                        durationMillis);
            }
        };
    }

    /** How often a cancelled run's waits look at their cancellation. */
    private static final long POLL_MILLIS = 20;

    /**
     * Runs {@code jobs} in order into {@code sink}, their models opened by {@code models} (a model
     * reference to a candidate) behind the policy's gates. Returns when every started unit has ended
     * and the sink has taken its result, or the run was cancelled (the policy's cancellation, or this
     * thread interrupted) and its units in flight were abandoned. A failure of the sink is rethrown
     * once the units in flight have ended; no unit starts after it.
     */
    public static <R> Outcome run(
            List<? extends Job<R>> jobs, Function<ModelRef, Candidate> models, Policy policy, Sink<R> sink) {
        Outcome o = run(Source.of(jobs), models, policy, sink);
        return new Outcome(
                jobs.size(),
                o.started(),
                o.delivered(),
                o.abandoned(),
                jobs.size() - o.started(),
                o.cancelled(),
                o.interrupted());
    }

    /**
     * Where a run's units come from when they are not all known at its start: a fleet worker's leased
     * cells ({@code brokkr worker}). {@link #next} is asked only when a slot is free (so a worker never
     * takes a unit it cannot start at once), on the run's thread; it may wait, and returns null when
     * there is nothing more to run.
     */
    public interface Source<R> {
        Job<R> next() throws InterruptedException;

        static <R> Source<R> of(List<? extends Job<R>> jobs) {
            java.util.Iterator<? extends Job<R>> it = jobs.iterator();
            return () -> it.hasNext() ? it.next() : null;
        }
    }

    /**
     * Runs the units {@code source} hands out, as {@link #run(List, Function, Policy, Sink)} runs a list
     * (same threads, gates, timeouts, cancellation and cache; indices in the order the units were handed
     * out). {@code Outcome.units} and {@code started} are the units handed out; {@code notStarted} is 0.
     */
    public static <R> Outcome run(Source<R> source, Function<ModelRef, Candidate> models, Policy policy, Sink<R> sink) {
        RunModels.Shared shared = new RunModels.Shared(models, policy);
        UsageWindows windows = UsageWindows.process();
        Semaphore slots = new Semaphore(policy.parallelism());
        AtomicReference<Throwable> fatal = new AtomicReference<>();
        AtomicInteger delivered = new AtomicInteger(), abandoned = new AtomicInteger();
        Cancellation cancellation = policy.cancellation();
        boolean interrupted = false, cancelled = false;
        int started = 0;
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            while (true) {
                if (!acquire(slots, cancellation)) {
                    cancelled = true;
                    interrupted = Thread.interrupted() || interrupted;
                    break;
                }
                if (fatal.get() != null || sink.fatal() != null) {
                    slots.release();
                    break;
                }
                // Before each cell: wait while a subscription's usage window is full or has refused a call.
                windows.awaitOpen(cancellation::isCancelled);
                if (cancellation.isCancelled()) {
                    slots.release();
                    cancelled = true;
                    break;
                }
                Job<R> job;
                try {
                    job = source.next();
                } catch (InterruptedException e) {
                    slots.release();
                    cancelled = true;
                    interrupted = true;
                    break;
                } catch (RuntimeException | Error e) {
                    slots.release();
                    fatal.compareAndSet(null, e);
                    break;
                }
                if (job == null) {
                    slots.release();
                    break;
                }
                if (cancellation.isCancelled()) {
                    // The source handed out a unit while the run was being cancelled: it never starts.
                    slots.release();
                    cancelled = true;
                    break;
                }
                int index = started++;
                pool.execute(() -> {
                    try {
                        RunModels unitModels = shared.of(job);
                        R result = runOne(job, unitModels, policy);
                        // A cell a usage window refused: recorded as the failure it is, run again after the reset.
                        for (int rerun = 0;
                                result != null && job.refusedByUsageWindow(result) && rerun < windows.reruns();
                                rerun++) {
                            sink.acceptRefused(index, job, result);
                            windows.awaitOpen(cancellation::isCancelled);
                            if (cancellation.isCancelled()) break;
                            result = runOne(job, shared.of(job), policy);
                        }
                        if (result == null) abandoned.incrementAndGet();
                        else {
                            sink.accept(index, job, result);
                            delivered.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        fatal.compareAndSet(null, t);
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
            if (cancelled) {
                // First the flag (a waiting unit that gets its turn before its interrupt must see it), then the
                // interrupts of the units in flight: runOne abandons them.
                cancellation.cancel();
                pool.shutdownNow();
            }
            interrupted |= awaitUninterruptibly(pool);
        }
        if (interrupted) Thread.currentThread().interrupt(); // the caller's interrupt, kept
        Throwable f = fatal.get() != null ? fatal.get() : sink.fatal();
        if (f instanceof RuntimeException re) throw re;
        if (f instanceof Error err) throw err;
        if (f != null) throw new IllegalStateException(f);
        return new Outcome(started, started, delivered.get(), abandoned.get(), 0, cancelled, interrupted);
    }

    /**
     * Runs one unit on a virtual thread of its own, so that a unit over its time limit can be abandoned.
     * Null when this thread was interrupted (the run was cancelled): the unit is cancelled and whatever
     * it produces is dropped.
     */
    private static <R> R runOne(Job<R> job, RunModels models, Policy policy) {
        long started = System.currentTimeMillis();
        long t0 = System.nanoTime();
        GenAiTrace trace = policy.trace();
        FutureTask<R> task = new FutureTask<>(
                trace.on()
                        ? () -> trace.agent(
                                job.candidate(), job.traceAttributes(), () -> job.run(models), job::traceOutcome)
                        : () -> job.run(models));
        Thread.ofVirtual().name("unit-" + job.name()).start(task);
        try {
            return task.get(policy.unitTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            return job.failed(
                    "timeout: the cell ran longer than " + policy.unitTimeout().toSeconds() + " s",
                    models,
                    started,
                    ms(t0));
        } catch (ExecutionException e) {
            return job.failed("harness error: " + e.getCause(), models, started, ms(t0));
        } catch (InterruptedException e) {
            task.cancel(true);
            return null;
        }
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Takes a slot; false when the run was cancelled (or this thread interrupted) first. */
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
}
