package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.run.Cancellation;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping a run half-way, from another thread ({@link Cancellation}) or by interrupting the thread
 * that runs it: no cell starts afterwards, nothing keeps calling the model, the lock is released,
 * nothing half-done is recorded, and running it again resumes to every cell exactly once.
 */
class CancellationTest {
    @TempDir
    Path tmp;

    static final int TASKS = 10, REPS = 4, CELLS = TASKS * REPS;

    static ExperimentSpec slowSpec() {
        var slow = new ExperimentSpec.CandidateSpec(
                "slow", new ModelRef("fake", "gold", PyDict.of("latency_ms", 150)), "tools", null);
        return new ExperimentSpec(
                "slow",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(slow),
                REPS,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
    }

    /** What a run left: one entry per committed attempt. */
    static final class Committed implements ProgressListener {
        final List<Attempt> attempts = new CopyOnWriteArrayList<>();

        @Override
        public void attemptFinished(Attempt a) {
            attempts.add(a);
        }

        void await(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (attempts.size() < n && System.nanoTime() < deadline) Thread.sleep(5);
            assertTrue(attempts.size() >= n, "no progress");
        }
    }

    /** After a stopped run: nothing runs on, the lock is free, what is stored is whole, and resuming completes every cell once. */
    private void checkStoppedAndResumable(Path dir, Experiments.Result r, QuizBench.Models models) throws Exception {
        assertTrue(r.cancelled(), r.summary());
        assertTrue(r.notStarted() > 0, r.summary());
        assertEquals(r.ran(), r.completed() + r.infrastructureFailures() + r.abandoned(), r.summary());
        assertEquals(0, r.infrastructureFailures(), "an abandoned cell is not a failure: " + r.summary());
        assertEquals(CELLS - r.completed(), r.withoutVerdict());
        int calls = models.calls.get();
        Thread.sleep(400);
        assertEquals(calls, models.calls.get(), "cells kept calling the model after the run was stopped");
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<Attempt> stored = q.attempts(true);
            assertEquals(r.completed(), stored.size());
            assertTrue(stored.stream().allMatch(Attempt::success), "only whole, completed attempts are kept");
        }
        ExperimentStore.openForRun(dir).close(); // the run lock was released

        var resumed = Experiments.run(slowSpec(), dir, ExperimentTest.registry(TASKS, new QuizBench.Models()));
        assertFalse(resumed.cancelled());
        assertEquals(r.completed(), resumed.skipped());
        assertEquals(CELLS - r.completed(), resumed.completed());
        assertTrue(resumed.complete());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            Map<ExperimentStore.CellKey, Integer> perCell = new HashMap<>();
            for (Attempt a : q.attempts(false))
                perCell.merge(
                        new ExperimentStore.CellKey(a.environmentId(), a.agentId(), a.repetition()), 1, Integer::sum);
            assertEquals(CELLS, perCell.size());
            perCell.forEach((k, n) -> assertEquals(1, n, "cell " + k));
        }
    }

    @Test
    void cancellingFromAnotherThreadStopsTheRunAndItResumes() throws Exception {
        Path dir = tmp.resolve("x");
        var models = new QuizBench.Models();
        var committed = new Committed();
        var cancel = new Cancellation();
        var run = CompletableFuture.supplyAsync(
                () -> Experiments.run(slowSpec(), dir, ExperimentTest.registry(TASKS, models), committed, cancel));
        committed.await(6);
        cancel.cancel();
        var r = run.get(10, TimeUnit.SECONDS);
        checkStoppedAndResumable(dir, r, models);
    }

    @Test
    void interruptingTheRunningThreadCancelsTheRunAndKeepsTheInterrupt() throws Exception {
        Path dir = tmp.resolve("x");
        var models = new QuizBench.Models();
        var committed = new Committed();
        var result = new CompletableFuture<Experiments.Result>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread runner = Thread.ofPlatform().start(() -> {
            try {
                var r = Experiments.run(slowSpec(), dir, ExperimentTest.registry(TASKS, models), committed);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
                result.complete(r);
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        committed.await(6);
        runner.interrupt();
        var r = result.get(10, TimeUnit.SECONDS);
        assertTrue(stillInterrupted.get(), "the runner's interrupt status is kept for its caller");
        checkStoppedAndResumable(dir, r, models);
    }

    @Test
    void aRunCancelledBeforeItStartsRunsNothing() {
        var cancel = new Cancellation();
        cancel.cancel();
        var models = new QuizBench.Models();
        var r = Experiments.run(
                slowSpec(), tmp.resolve("x"), ExperimentTest.registry(TASKS, models), ProgressListener.NONE, cancel);
        assertTrue(r.cancelled());
        assertEquals(0, r.ran());
        assertEquals(CELLS, r.notStarted());
        assertEquals(0, models.calls.get());
    }
}
