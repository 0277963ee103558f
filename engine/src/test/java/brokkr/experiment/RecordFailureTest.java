package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.run.Cancellation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No cell disappears: an attempt that cannot be recorded is recorded as its cell's infrastructure failure. */
class RecordFailureTest {
    @TempDir
    Path tmp;

    @Test
    void anAttemptThatCannotBeSerializedIsAnInfrastructureFailureRetriedOnResume() {
        Path dir = tmp.resolve("x");
        var spec = ExperimentTest.spec("all", 2, 2, 3, List.of(ExperimentTest.candidate("gold", "gold", null)));
        // Rendering task q1's attempts fails as a huge transcript would (an OutOfMemoryError is an Error, not an
        // exception).
        var r = Experiments.run(
                spec,
                dir,
                ExperimentTest.registry(3, new QuizBench.Models()),
                ProgressListener.NONE,
                new Cancellation(),
                a -> {
                    if (a.taskId().equals("q1")) throw new OutOfMemoryError("Java heap space");
                    return ExperimentStore.prepare(a);
                });
        assertEquals(6, r.ran(), r.summary());
        assertEquals(4, r.completed(), r.summary());
        assertEquals(2, r.infrastructureFailures(), r.summary());
        assertEquals(2, r.notRecorded(), r.summary());
        assertEquals(2, r.withoutVerdict(), r.summary());
        assertTrue(
                r.summary().contains("2 infrastructure failures, 2 of them not recordable")
                        && r.summary().contains("2 without a verdict"),
                r.summary());
        assertEquals(2, r.scorecard().pendingCells());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<Attempt> stored = q.attempts(true);
            assertEquals(6, stored.size(), "every cell that ran has its attempt");
            List<Attempt> failed = stored.stream().filter(a -> !a.completed()).toList();
            assertEquals(
                    List.of("q1", "q1"), failed.stream().map(Attempt::taskId).toList());
            for (Attempt a : failed) {
                assertTrue(
                        a.error()
                                .startsWith(
                                        "not recorded: java.lang.OutOfMemoryError: Java heap space while storing the completed attempt"),
                        a.error());
                assertTrue(a.evidence().agentUsage().inputTokens() > 0, "its usage is kept");
            }
        }
        var resumed = Experiments.run(spec, dir, ExperimentTest.registry(3, new QuizBench.Models()));
        assertEquals(4, resumed.skipped());
        assertEquals(2, resumed.completed());
        assertTrue(resumed.complete(), resumed.summary());
    }
}
