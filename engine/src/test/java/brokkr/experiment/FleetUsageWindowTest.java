package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.eval.Attempt;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.experiment.testing.PostgresServer;
import brokkr.run.Cancellation;
import brokkr.run.UsageWindows;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A fleet worker (on a real PostgreSQL server) treats a cell a usage window refused as the embedded runner does: the
 * refused attempt is stored as an infrastructure failure beside the cell's later attempt, the worker waits for the
 * window's reset and runs the cell again under the same lease, and only the re-run is scored.
 */
class FleetUsageWindowTest {
    @AfterEach
    void forget() {
        UsageWindows.process().clear();
    }

    /** The quiz's fake models, whose first call a usage window refuses (reset 0.5 s later). */
    static ModelFactory refusingOnce() {
        QuizBench.Models gold = new QuizBench.Models();
        AtomicBoolean refused = new AtomicBoolean();
        return new ModelFactory() {
            @Override
            public String provider() {
                return gold.provider();
            }

            @Override
            public Candidate create(ModelRef ref) {
                Candidate c = gold.create(ref);
                return (history, tools) -> {
                    if (refused.compareAndSet(false, true)) {
                        Instant reset = Instant.now().plusMillis(500);
                        UsageWindows.process().refused("fake subscription", "five_hour", reset, 3);
                        throw new InfrastructureFailure(
                                UsageWindows.REFUSED + " (five_hour, resets " + reset + ")", List.of(), null);
                    }
                    return c.next(history, tools);
                };
            }
        };
    }

    @Test
    void aRefusedCellIsStoredWaitsForTheResetAndRunsAgainUnderItsLease() throws Exception {
        UsageWindows.process().clear();
        try (var db = PostgresServer.shared().createDatabase()) {
            PostgresLocation store = PostgresLocation.parse(db.url());
            Registry registry = Registry.of(List.of(new QuizBench(2)), List.of(refusingOnce()));
            ExperimentSpec spec =
                    ExperimentTest.spec("all", 1, 1, 0, List.of(ExperimentTest.candidate("gold", "gold", null)));
            Fleet.register(spec, store, registry, Map.of());
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            var result = Fleet.work(
                    store,
                    registry,
                    FleetWorker.Options.defaults(null, 1),
                    new PrintStream(log, true, StandardCharsets.UTF_8),
                    new Cancellation());
            assertEquals(2, result.completed(), log.toString(StandardCharsets.UTF_8));
            try (ExperimentQuery q = ExperimentQuery.open(store)) {
                List<Attempt> attempts = q.attempts(true);
                assertEquals(3, attempts.size(), "the refused attempt is kept beside the two that scored");
                List<Attempt> failed =
                        attempts.stream().filter(a -> !a.completed()).toList();
                assertEquals(1, failed.size());
                assertTrue(
                        UsageWindows.refusedError(failed.getFirst().error()),
                        failed.getFirst().error());
                Attempt rerun = attempts.stream()
                        .filter(a -> a.completed()
                                && a.taskId().equals(failed.getFirst().taskId()))
                        .findFirst()
                        .orElseThrow();
                assertEquals(1.0, rerun.reward(), "the refused cell ran again and scored");
                assertFalse(Duration.ofMillis(
                                rerun.startedAtMillis() - failed.getFirst().startedAtMillis())
                        .isNegative());
                assertEquals(1.0, ExperimentTest.row(Scorecard.of(q), "gold").avgReward());
            }
        }
    }
}
