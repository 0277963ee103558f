package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.Scorecard.CandidateScore;
import brokkr.experiment.Scorecard.TaskScore;
import brokkr.stats.Estimate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The statistics a scorecard row derives, worked by hand. */
class ScorecardStatisticsTest {
    private static CandidateScore row(List<TaskScore> tasks, double avg, List<Double> curve) {
        int attempts = tasks.stream().mapToInt(TaskScore::trials).sum();
        return new CandidateScore(
                "b",
                "c",
                "a",
                tasks.size(),
                attempts,
                0,
                avg,
                curve,
                tasks,
                List.of(),
                Map.of(),
                new Scorecard.Cost(0, 0, 0, 0, EpisodeCost.Means.NONE));
    }

    /**
     * Three tasks of 3 trials with 3, 1 and 0 successes. pass^1 per task 1, 1/3, 0: mean 4/9, s^2 =
     * (25 + 1 + 16)/81 / 2 = 21/81, se = sqrt(21)/9/sqrt(3) = 0.293972; pass^2 and pass^3 per task 1, 0,
     * 0: mean 1/3, s^2 = 1/3, se = 1/3, interval 1/3 -+ 4.302653/3 clipped to [0, 1].
     */
    @Test
    void passHatKStandardErrorsOverTasks() {
        CandidateScore r = row(
                List.of(
                        new TaskScore("t1", 3, 3, 1.0, List.of(1.0, 1.0, 1.0)),
                        new TaskScore("t2", 3, 1, 1.0 / 3, List.of(1.0 / 3, 0.0, 0.0)),
                        new TaskScore("t3", 3, 0, 0.0, List.of(0.0, 0.0, 0.0))),
                4.0 / 9,
                List.of(4.0 / 9, 1.0 / 3, 1.0 / 3));
        List<Estimate> k = r.passHatKEstimates();
        assertEquals(3, k.size());
        assertEquals(4.0 / 9, k.get(0).value(), 1e-12);
        assertEquals(Math.sqrt(21) / 9 / Math.sqrt(3), k.get(0).se(), 1e-12);
        assertEquals(1.0 / 3, k.get(1).value(), 1e-12);
        assertEquals(1.0 / 3, k.get(1).se(), 1e-12);
        assertEquals(new Estimate.Interval(0, 1), k.get(2).t95(), "1/3 -+ 1.434 clipped to [0, 1]");
        // The average reward of equal trials: the same numbers as pass^1 (rewards 0/1).
        assertEquals(k.get(0).value(), r.rewardEstimate().value(), 1e-12);
        assertEquals(k.get(0).se(), r.rewardEstimate().se(), 1e-12);
        assertEquals(3, r.minTrials());
        assertEquals(3, r.maxTrials());
        assertTrue(r.rewardWilson().defined());
        assertEquals(3, r.passHatKWilson().size());
    }

    /** No scored attempt: no estimate at all (shown "–"), never 0. */
    @Test
    void aCandidateWithNoScoredAttemptHasNoEstimate() {
        CandidateScore none = row(List.of(), 0.0, List.of());
        assertFalse(none.rewardEstimate().defined());
        assertFalse(none.rewardWilson().defined());
        assertEquals(List.of(), none.passHatKEstimates());
        assertEquals(0, none.minTrials());
    }

    /** One task: the value, but no standard error or interval. */
    @Test
    void oneTaskHasAValueButNoInterval() {
        CandidateScore one =
                row(List.of(new TaskScore("t1", 4, 2, 0.5, List.of(0.5, 1.0 / 6))), 0.5, List.of(0.5, 1.0 / 6));
        assertEquals(0.5, one.rewardEstimate().value());
        assertTrue(Double.isNaN(one.rewardEstimate().se()));
        assertFalse(one.rewardEstimate().t95().defined());
        assertFalse(one.rewardWilson().defined());
        assertEquals(1.0 / 6, one.passHatKEstimates().get(1).value(), 1e-12);
    }
}
