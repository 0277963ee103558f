package brokkr.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.eval.ModelRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The one runner on jobs of its own (the cells' path is covered through experiments, branches and probes). */
class RunnerTest {
    /** A job that sleeps {@code millis} (interruptibly) and answers its index; its failure says why. */
    record Sleeper(int index, long millis, AtomicInteger running, AtomicInteger most) implements Job<String> {
        @Override
        public String name() {
            return "sleeper-" + index;
        }

        @Override
        public String run(RunModels models) throws InterruptedException {
            int now = running.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            try {
                Thread.sleep(millis);
            } finally {
                running.decrementAndGet();
            }
            return "done " + index;
        }

        @Override
        public String failed(String error, RunModels models, long startedAtMillis, long durationMillis) {
            return "failed " + index + ": " + error;
        }
    }

    static List<Sleeper> sleepers(long... millis) {
        AtomicInteger running = new AtomicInteger(), most = new AtomicInteger();
        List<Sleeper> out = new ArrayList<>();
        for (int i = 0; i < millis.length; i++) out.add(new Sleeper(i, millis[i], running, most));
        return out;
    }

    static final Function<ModelRef, Candidate> NO_MODELS = ref -> {
        throw new IllegalStateException("no models");
    };

    @Test
    void resultsReachAnOrderedSinkInPlanOrderAndNoMoreThanParallelismRunAtOnce() {
        List<Sleeper> jobs = sleepers(120, 10, 60, 10, 30, 10);
        List<String> seen = new ArrayList<>();
        Sink.Ordered<String> sink = Sink.ordered(seen::add);
        Runner.Outcome o = Runner.run(jobs, NO_MODELS, Policy.of(2), sink);
        assertEquals(List.of("done 0", "done 1", "done 2", "done 3", "done 4", "done 5"), seen);
        assertEquals(seen, sink.results());
        assertEquals(new Runner.Outcome(6, 6, 6, 0, 0, false, false), o);
        assertEquals(2, jobs.getFirst().most().get(), "two at once, never more");
    }

    @Test
    void aUnitOverItsTimeoutEndsAsItsFailureAndTheOthersFinish() {
        Sink.Ordered<String> sink = Sink.memory();
        Runner.run(sleepers(5, 5_000, 5), NO_MODELS, Policy.of(3).withTimeout(Duration.ofMillis(200)), sink);
        assertEquals("done 0", sink.results().get(0));
        assertEquals(
                "failed 1: timeout: the cell ran longer than 0 s",
                sink.results().get(1));
        assertEquals("done 2", sink.results().get(2));
    }

    @Test
    void aJobThatThrowsEndsAsAHarnessError() {
        Job<String> broken = new Job<>() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public String run(RunModels models) {
                throw new IllegalStateException("boom");
            }

            @Override
            public String failed(String error, RunModels models, long s, long d) {
                return error;
            }
        };
        Sink.Ordered<String> sink = Sink.memory();
        Runner.run(List.of(broken), NO_MODELS, Policy.of(1), sink);
        assertEquals(List.of("harness error: java.lang.IllegalStateException: boom"), sink.results());
    }

    @Test
    void cancellingAbandonsTheUnitsInFlightAndStartsNoMore() throws Exception {
        Cancellation c = new Cancellation();
        List<Sleeper> jobs = sleepers(10, 60_000, 60_000, 60_000, 10);
        Sink.Ordered<String> sink = Sink.memory();
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            c.cancel();
        });
        long t0 = System.nanoTime();
        Runner.Outcome o = Runner.run(jobs, NO_MODELS, Policy.of(2).withCancellation(c), sink);
        canceller.join();
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30), "the sleeping units were interrupted");
        assertTrue(o.cancelled());
        assertEquals(List.of("done 0"), sink.results());
        assertEquals(3, o.started(), "unit 0 finished, units 1 and 2 were in flight");
        assertEquals(2, o.abandoned());
        assertEquals(2, o.notStarted());
    }

    @Test
    void aFailingSinkStopsTheRunAndIsRethrown() {
        IllegalStateException full = new IllegalStateException("disk full");
        AtomicInteger accepted = new AtomicInteger();
        Sink<String> sink = (index, job, result) -> {
            accepted.incrementAndGet();
            throw full;
        };
        List<Sleeper> jobs = sleepers(5, 5, 5, 5, 5, 5, 5, 5);
        IllegalStateException thrown =
                assertThrows(IllegalStateException.class, () -> Runner.run(jobs, NO_MODELS, Policy.of(1), sink));
        assertSame(full, thrown);
        assertTrue(accepted.get() < jobs.size(), "no unit starts after the sink failed: " + accepted.get());
    }

    /** Each unit's model calls go through its provider's gate: the limit holds over every unit of the run. */
    @Test
    void aProvidersLimitHoldsAcrossUnitsAndEachReferenceIsOpenedOnce() {
        AtomicInteger inCall = new AtomicInteger(), most = new AtomicInteger(), opened = new AtomicInteger();
        Map<ModelRef, Integer> opens = new ConcurrentHashMap<>();
        Function<ModelRef, Candidate> models = ref -> {
            opened.incrementAndGet();
            opens.merge(ref, 1, Integer::sum);
            return (history, tools) -> {
                most.accumulateAndGet(inCall.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    inCall.decrementAndGet();
                }
                return Turn.of(new Message.Assistant("ok", List.of(), null));
            };
        };
        CountDownLatch allStarted = new CountDownLatch(4);
        List<Job<String>> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int n = i;
            jobs.add(new Job<>() {
                @Override
                public String name() {
                    return "caller-" + n;
                }

                @Override
                public String run(RunModels m) throws Exception {
                    allStarted.countDown();
                    allStarted.await(10, TimeUnit.SECONDS);
                    Candidate c = m.model(new ModelRef("p", "m"));
                    for (int k = 0; k < 3; k++) c.next(List.of(), List.of());
                    return "ok";
                }

                @Override
                public String failed(String error, RunModels m, long s, long d) {
                    return error;
                }
            });
        }
        Sink.Ordered<String> sink = Sink.memory();
        Runner.run(jobs, models, Policy.of(4).withProviderLimits(Map.of("p", new Policy.Limit(1, 0))), sink);
        assertEquals(List.of("ok", "ok", "ok", "ok"), sink.results());
        assertEquals(1, most.get(), "provider p: one call at a time over all four units");
        assertEquals(1, opened.get(), "one candidate per model reference for the whole run");
    }

    /**
     * Units waiting for their provider's concurrency limit when the run is cancelled stop waiting: none
     * of them sends its call after the run returned (they waited uninterruptibly and each sent it).
     */
    @Test
    void unitsWaitingForTheirProvidersLimitSendNothingOnceTheRunIsCancelled() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch firstCall = new CountDownLatch(1);
        Function<ModelRef, Candidate> models = ref -> (history, tools) -> {
            calls.incrementAndGet();
            firstCall.countDown();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Turn.of(new Message.Assistant("ok"));
        };
        List<Job<String>> jobs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int n = i;
            jobs.add(new Job<>() {
                @Override
                public String name() {
                    return "caller-" + n;
                }

                @Override
                public String run(RunModels m) throws Exception {
                    m.model(new ModelRef("p", "m")).next(List.of(), List.of());
                    return "ok";
                }

                @Override
                public String failed(String error, RunModels m, long s, long d) {
                    return error;
                }
            });
        }
        Cancellation c = new Cancellation();
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                firstCall.await();
            } catch (InterruptedException e) {
                return;
            }
            c.cancel();
        });
        Runner.Outcome o = Runner.run(
                jobs,
                models,
                Policy.of(50)
                        .withProviderLimits(Map.of("p", new Policy.Limit(1, 0)))
                        .withCancellation(c),
                Sink.memory());
        canceller.join();
        assertTrue(o.cancelled());
        Thread.sleep(1000); // all 50 one at a time would take 5 s
        assertTrue(calls.get() <= 2, calls.get() + " calls were sent, most after the run was cancelled");
    }
}
