package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.Comparison.Trial;
import brokkr.experiment.Comparison.Unmatched;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Alignment by task and trial, and the paired statistics over the aligned tasks, worked by hand. */
class ComparisonTest {
    private static Trial pass(int rep) {
        return new Trial(rep, 1.0, true);
    }

    private static Trial fail(int rep) {
        return new Trial(rep, 0.0, false);
    }

    /**
     * t1: both scored trials 0 and 1 (A 1, 1; B 0, 1): difference 1 - 0.5 = 0.5. t2: A scored trial 0, B
     * trials 0 and 1: only trial 0 pairs (A 1, B 1; B's trial 1 excluded): difference 0. t3 only in A,
     * t4 only in B, t5 A scored trial 0 and B trial 1: nothing pairs. k up to 1 (t2 has one matched trial).
     * Differences [0.5, 0]: mean 0.25, sd 0.353553, se 0.25, t = 1 with 1 df: p = 0.5 (Cauchy);
     * sign flips: sums 0.5, 0.5, -0.5, -0.5 all reach 0.5: p = 1.
     */
    @Test
    void alignsByTaskAndTrialAndListsWhatItLeavesOut() {
        Map<String, List<Trial>> a = new LinkedHashMap<>(), b = new LinkedHashMap<>();
        a.put("t1", List.of(pass(0), pass(1)));
        a.put("t2", List.of(pass(0)));
        a.put("t3", List.of(pass(0)));
        a.put("t5", List.of(fail(0)));
        b.put("t1", List.of(fail(0), pass(1)));
        b.put("t2", List.of(pass(0), fail(1)));
        b.put("t4", List.of(pass(0)));
        b.put("t5", List.of(pass(1)));
        Comparison c = Comparison.of("bench", new Comparison.Side("x", "d1"), new Comparison.Side("y", "d2"), a, b);
        assertEquals(
                List.of("t1", "t2"),
                c.tasks().stream().map(Comparison.TaskDifference::taskId).toList());
        assertEquals(
                List.of(
                        new Unmatched("t3", "only in A"),
                        new Unmatched("t5", "no trial scored by both"),
                        new Unmatched("t4", "only in B")),
                c.unmatched());
        assertEquals(1, c.trialsExcluded());
        assertEquals(
                List.of(0.5, 0.0),
                c.tasks().stream()
                        .map(Comparison.TaskDifference::rewardDifference)
                        .toList());
        assertEquals(2, c.tasks().getFirst().trials());
        assertEquals(1, c.maxK());
        assertEquals(0.25, c.reward().difference().value(), 1e-12);
        assertEquals(0.25, c.reward().difference().se(), 1e-12);
        assertEquals(0.5, c.reward().pT(), 1e-12);
        assertEquals(1.0, c.reward().signFlip().p());
        assertEquals(0.75, c.reward().meanB(), 1e-12);
        // pass^1 over the matched trials equals the mean reward for 0/1 rewards.
        assertEquals(
                c.reward().difference().value(),
                c.passHatK().getFirst().difference().value(),
                1e-12);
        assertTrue(c.acrossDirectories());
        assertNull(c.agentUsd(), "trials without a price compare no cost (a dash, never $0)");
    }

    /** The agent's dollars per episode compared over the same trials as the score, beside its difference. */
    @Test
    void theCostDifferenceIsPairedOverTheTrialsTheScoreIs() {
        Map<String, List<Trial>> a = new LinkedHashMap<>(), b = new LinkedHashMap<>();
        a.put("t1", List.of(new Trial(0, 1.0, true, 0.03), new Trial(1, 1.0, true, 0.05)));
        a.put("t2", List.of(new Trial(0, 0.0, false, 0.02)));
        b.put("t1", List.of(new Trial(0, 0.0, false, 0.01), new Trial(1, 1.0, true, 0.01)));
        b.put("t2", List.of(new Trial(0, 1.0, true, 0.01), new Trial(7, 1.0, true, 9.0))); // rep 7 unmatched
        Comparison c = Comparison.of("bench", new Comparison.Side("x", "d"), new Comparison.Side("y", "d"), a, b);
        // per task a - b: t1 0.04 - 0.01, t2 0.02 - 0.01; mean 0.02.
        assertEquals(0.02, c.agentUsd().difference().value(), 1e-15);
        assertEquals(0.03, c.agentUsd().meanA(), 1e-15);
        b.put("t2", List.of(new Trial(0, 1.0, true)));
        assertNull(Comparison.of("bench", new Comparison.Side("x", "d"), new Comparison.Side("y", "d"), a, b)
                .agentUsd());
    }

    @Test
    void nothingInCommonComparesNothing() {
        Comparison c = Comparison.of(
                "bench",
                new Comparison.Side("x", "d"),
                new Comparison.Side("y", "d"),
                Map.of("t1", List.of(pass(0))),
                Map.of("t2", List.of(pass(0))));
        assertEquals(List.of(), c.tasks());
        assertEquals(0, c.maxK());
        assertTrue(Double.isNaN(c.reward().difference().value()));
        assertEquals(2, c.unmatched().size());
    }

    @Test
    void choosesTheCandidatesOrSaysWhichThereAre() {
        assertEquals(List.of("a", "b"), Comparison.resolve(List.of("a", "b"), List.of("a", "b"), false, null, null));
        assertEquals(List.of("b", "a"), Comparison.resolve(List.of("a", "b"), List.of("a", "b"), false, "b", null));
        assertEquals(
                List.of("a", "c"), Comparison.resolve(List.of("a", "b", "c"), List.of("a", "b", "c"), false, "a", "c"));
        var three = assertThrows(
                IllegalArgumentException.class,
                () -> Comparison.resolve(List.of("a", "b", "c"), List.of("a", "b", "c"), false, null, null));
        assertTrue(three.getMessage().contains("3 candidates (a, b, c)"), three.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Comparison.resolve(List.of("a", "b"), List.of("a", "b"), false, "a", "a"));
        var unknown = assertThrows(
                IllegalArgumentException.class,
                () -> Comparison.resolve(List.of("a", "b"), List.of("a", "b"), false, "z", null));
        assertTrue(unknown.getMessage().contains("no candidate 'z'"), unknown.getMessage());
        // Two directories: the same candidate in both by default (a re-run), else each one's only candidate.
        assertEquals(
                List.of("gold", "gold"),
                Comparison.resolve(List.of("gold"), List.of("gold", "stop"), true, null, null));
        assertEquals(List.of("gold", "stop"), Comparison.resolve(List.of("gold"), List.of("stop"), true, null, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> Comparison.resolve(List.of("gold", "x"), List.of("stop"), true, null, null));
    }
}
