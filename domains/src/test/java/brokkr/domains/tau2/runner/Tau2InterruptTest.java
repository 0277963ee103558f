package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.eval.Attempt;
import brokkr.eval.Branches;
import brokkr.eval.Checkpoint;
import brokkr.eval.DecisionPoint;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Probes;
import brokkr.experiment.Registry;
import brokkr.experiment.Regrade;
import brokkr.experiment.StoredBranches;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupting the thread that probes or runs branches cancels the queued units (as for an
 * experiment): the call returns promptly, having run far fewer model calls than were asked for.
 */
class Tau2InterruptTest {
    @TempDir
    Path tmp;

    static final ModelRef SLOW = new ModelRef("slow", "agent"), USER = new ModelRef("slow", "user");
    static final int UNITS = 200, PARALLELISM = 2, INTERRUPT_AFTER = 4;

    /** A model that takes 100 ms per call (as a remote one would), counting its calls. */
    record Slow(AtomicInteger calls, CountDownLatch started) implements Function<ModelRef, Candidate> {
        Slow() {
            this(new AtomicInteger(), new CountDownLatch(INTERRUPT_AFTER));
        }

        @Override
        public Candidate apply(ModelRef ref) {
            if (ref.model().equals("user")) // the customer ends the episode at once
            return (history, tools) -> Turn.of(new Message.Assistant("###STOP###"));
            return (history, tools) -> {
                calls.incrementAndGet();
                started.countDown();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Turn.of(new Message.Assistant("I cannot help with that."));
            };
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    /** Runs {@code call} on a thread of its own, interrupts it after the first units, and checks it stopped. */
    private static void interruptedEarly(String what, Slow models, Call call) throws Exception {
        AtomicReference<Throwable> ended = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name(what).start(() -> {
            try {
                call.run();
            } catch (Throwable e) {
                ended.set(e);
            }
        });
        for (int i = 0; i < 600 && t.isAlive() && models.started().getCount() > 0; i++)
            models.started().await(100, TimeUnit.MILLISECONDS);
        assertTrue(models.started().getCount() == 0, what + " started no unit (" + ended.get() + ")");
        t.interrupt();
        long t0 = System.nanoTime();
        t.join(TimeUnit.SECONDS.toMillis(30)); // all 200 units at 2 at a time would take 10 s and more
        long millis = (System.nanoTime() - t0) / 1_000_000;
        boolean returned = !t.isAlive();
        if (!returned) t.join();
        Thread.sleep(1000); // what an abandoned unit still does in the background counts too
        int ran = models.calls().get();
        assertTrue(
                returned && ran <= 2 * INTERRUPT_AFTER + 2 * PARALLELISM,
                what + ": " + ran + " units ran (all would be more), returned after " + millis + " ms (" + ended.get()
                        + ")");
        assertTrue(
                ended.get() instanceof InterruptedException
                        || ended.get() instanceof IllegalStateException ise
                                && ise.getMessage().startsWith("interrupted"),
                what + " ended with " + ended.get());
    }

    @Test
    void interruptingAProbeCancelsItsQueuedSamples() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        String task = Tau2BranchingTest.task(retail, false);
        EnvironmentDef env = retail.environment(task, Map.of());
        Attempt record = Evaluation.evaluate(
                Tau2BranchingTest.cell(retail, task, Tau2BranchingTest.GOLD),
                Tau2BranchingTest.NO_MODELS,
                new Evaluation.Recorder());
        DecisionPoint dp = Probes.decisionPoint(retail, env, record.evidence().transcript(), 1);
        Slow models = new Slow();
        interruptedEarly(
                "probe", models, () -> Probes.probe(retail, dp, 0, SLOW, "slow", UNITS, 0, models, PARALLELISM));
    }

    @Test
    void interruptingStoredBranchesCancelsTheQueuedOnes() throws Exception {
        Tau2Benchmark retail = Tau2Domains.benchmark("retail");
        String task = Tau2BranchingTest.task(retail, false);
        Checkpoint cp = Branches.checkpoint(
                Tau2BranchingTest.cell(retail, task, Tau2BranchingTest.GOLD), 1, Tau2BranchingTest.NO_MODELS);
        List<Branches.Branch> branches = Branches.branches(cp, new Branches.Variant(SLOW, USER, null), UNITS);
        Slow models = new Slow();
        Attempt one = StoredBranches.runUnstored(branches.subList(0, 1), new Slow(), 1)
                .getFirst();
        assertTrue(one.error() == null, "a branch: " + one.error());
        interruptedEarly(
                "stored branches", models, () -> StoredBranches.run(tmp.resolve("exp"), branches, models, PARALLELISM));
        Slow unstored = new Slow();
        interruptedEarly("branches", unstored, () -> StoredBranches.runUnstored(branches, unstored, PARALLELISM));
    }

    @Test
    void interruptingARegradeCancelsTheQueuedJudgeCalls() throws Exception {
        Path dir = tmp.resolve("recorded");
        var spec = Tau2ExperimentTest.spec(
                "regrade",
                List.of(new ExperimentSpec.DomainSpec("tau2-retail", null, List.of("19", "36", "62"))),
                List.of(Tau2ExperimentTest.GOLD, Tau2ExperimentTest.STOP),
                20,
                Map.of(),
                0);
        assertEquals(120, Experiments.run(spec, dir, Registry.load()).completed());
        Slow judge = new Slow();
        Registry registry = Tau2RegradeTest.registry(judge.apply(SLOW));
        interruptedEarly("regrade", judge, () -> Regrade.run(dir, "test-judge", "slow", registry, 1));
    }
}
