package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cost.Budget;
import brokkr.eval.ModelRef;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment's budget: it stops handing out cells at the one that crosses it, records what ran and says how
 * far it got; run again with a larger budget it goes on with the same cells.
 */
class ExperimentBudgetTest {
    @TempDir
    Path tmp;

    /** quiz-model at $1000 per million input tokens: an episode of task qN costs (40 + N) / 1000 dollars. */
    static final PyDict PRICES = PyDict.of("openai:quiz-model", PyDict.of("input", 1000, "output", 0));

    static ExperimentSpec spec(Budget b) {
        return ExperimentTest.spec(
                        "all",
                        2,
                        1,
                        0,
                        List.of(new ExperimentSpec.CandidateSpec(
                                "loopback", new ModelRef("openai", "quiz-model"), "tools", null)))
                .withCosts(new ExperimentSpec.CostSpec(b, PRICES));
    }

    @Test
    void aBudgetStopsSchedulingAtTheCellThatCrossesItAndALargerOneGoesOn() throws Exception {
        Path dir = tmp.resolve("x");
        try (ScriptedModelServer server = EpisodeCostTest.quizModel()) {
            var registry = ModelCacheTest.registry(ModelCacheTest.env(server));
            // Plan order q0, q0, q1, ...: two cells spend $0.080, the third crosses $0.10 at $0.121.
            Experiments.Result r = Experiments.run(spec(new Budget(0.10, null, Budget.OnBudget.FINISH)), dir, registry);
            assertEquals(3, r.completed(), r.summary());
            assertEquals(3, r.notStarted(), r.summary());
            assertEquals(3, server.requestCount(), "no call of a cell never started");
            assertTrue(
                    r.budget()
                            .endsWith(
                                    "reached (on_budget: finish): 3 of 6 pending cells not started; a larger budget goes on"),
                    r.budget());
            assertTrue(r.budget().startsWith("$0.1210 of $0.1000"), r.budget());

            // Run again with the same budget: what the store spent counts, nothing starts.
            r = Experiments.run(spec(new Budget(0.10, null, Budget.OnBudget.FINISH)), dir, registry);
            assertEquals(0, r.ran(), r.summary());
            assertTrue(r.budget().contains("reached before this run"), r.budget());

            // A larger budget resumes the same cells (a budget is no part of their identity).
            r = Experiments.run(spec(new Budget(1.0, null, Budget.OnBudget.FINISH)), dir, registry);
            assertEquals(3, r.skipped(), r.summary());
            assertEquals(3, r.completed(), r.summary());
            assertTrue(r.complete(), r.summary());
            assertFalse(r.budget().contains("reached"), r.budget());
            assertTrue(r.budget().startsWith("$0.2460 of $1.000"), r.budget());
            assertEquals(6, server.requestCount());

            // Tokens alone: 246 + 18 tokens are spent, a limit of 100 stops before any cell.
            r = Experiments.run(spec(new Budget(null, 100L, Budget.OnBudget.CANCEL)), dir, registry);
            assertTrue(r.budget().startsWith("264 of 100 tokens reached before this run"), r.budget());
        }
    }

    /**
     * A dry run prices a plan's pending cells from a previous experiment's mean tokens per episode: from a 1-trial
     * run of the quiz (41 input, 3 output tokens per episode at $2/$8 per million), the 2-trial plan's 6 cells are
     * estimated within 10% of what running them then costs.
     */
    @Test
    void aDryRunEstimatesWithinTenPercentOfTheRunsCost() throws Exception {
        PyDict prices = PyDict.of("openai:quiz-model", PyDict.of("input", 2, "output", 8));
        ExperimentSpec one = ExperimentTest.spec(
                        "all",
                        1,
                        1,
                        0,
                        List.of(new ExperimentSpec.CandidateSpec(
                                "loopback", new ModelRef("openai", "quiz-model"), "tools", null)))
                .withCosts(new ExperimentSpec.CostSpec(Budget.NONE, prices));
        ExperimentSpec two = spec(Budget.NONE).withCosts(new ExperimentSpec.CostSpec(Budget.NONE, prices));
        try (ScriptedModelServer server = EpisodeCostTest.quizModel()) {
            var registry = ModelCacheTest.registry(ModelCacheTest.env(server));
            Path before = tmp.resolve("before"), after = tmp.resolve("after");
            Experiments.run(one, before, registry);
            CostEstimate.Typical typical;
            try (ExperimentQuery q = ExperimentQuery.open(before)) {
                typical = CostEstimate.Typical.of(q);
            }
            CostEstimate e = Experiments.dryRun(two, StoreLocation.of(after), registry, typical);
            assertEquals(3, server.requestCount(), "the first run sent 3, a dry run nothing");
            assertEquals(1, e.rows().size());
            assertEquals(6, e.rows().getFirst().cells());
            assertEquals("openai:quiz-model", e.rows().getFirst().models().get("agent"));
            assertEquals(6 * (41 * 2 + 3 * 8) / 1e6, e.totalUsd(), 1e-12);
            Experiments.run(two, after, registry);
            double actual;
            try (ExperimentQuery q = ExperimentQuery.open(after)) {
                var m = Scorecard.of(q, two.costs().prices(brokkr.cost.PriceTable.pinned()))
                        .rows()
                        .getFirst()
                        .cost()
                        .perEpisode();
                actual = m.usd("agent") * m.episodes();
            }
            assertEquals(1.0, e.totalUsd() / actual, 0.10, "estimate " + e.totalUsd() + ", actual " + actual);
            // Run again: nothing is pending, nothing is estimated.
            assertEquals(
                    0.0,
                    Experiments.dryRun(two, StoreLocation.of(after), registry, typical)
                            .totalUsd());
        }
    }

    @Test
    void aBadBudgetIsRefusedByTheSpec() {
        var e = assertThrows(
                ExperimentSpec.SpecException.class,
                () -> ExperimentSpec.parse(
                        "{\"domain\": \"quiz\", \"split\": \"all\", \"candidates\": [{\"id\": \"a\", \"provider\": \"scripted\", \"model\": \"oracle\"}], \"budget\": {\"max_cost_usd\": -1}}",
                        false,
                        "x.json",
                        "x",
                        null));
        assertEquals("budget: max_cost_usd must be a number > 0, got -1.0", e.getMessage());
    }
}
