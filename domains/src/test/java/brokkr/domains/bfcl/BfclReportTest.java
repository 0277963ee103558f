package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.eval.Report;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BFCL's report on the experiment path is bfcl run's summary as data: the same rows, the total, the two aggregates. */
class BfclReportTest {
    @Test
    void theReportIsTheSummaryAsData() {
        BfclBenchmark b = new BfclBenchmark(Shared.data());
        AgentDef gold = AgentDef.of(new ModelRef("scripted", "gold"), "reference", null);
        List<Report.Outcome> outcomes = new ArrayList<>();
        List<BfclScores.TaskResult> results = new ArrayList<>();
        for (String id : b.tasks("all:sample=4:seed=3")) {
            EnvironmentDef env = b.environment(id, Map.of());
            Attempt a = Evaluation.evaluate(
                    new Evaluation.Cell(b, env, gold, null, 0),
                    ref -> {
                        throw new AssertionError("gold is the benchmark's own model");
                    },
                    new Evaluation.Recorder());
            outcomes.add(new Report.Outcome(env, a));
            results.add(BfclScores.TaskResult.of(env, a));
        }
        BfclScores.Summary s = BfclScores.summarize(results);
        List<Report> reports = b.reports(outcomes);
        assertEquals(1, reports.size());
        Report r = reports.getFirst();
        assertEquals(List.of("category", "tasks", "passed", "accuracy", "unsat", "infra"), r.columns());
        assertEquals(s.categories().size() + 1, r.rows().size());
        int i = 0;
        for (BfclScores.CategoryScore c : s.categories().values()) {
            assertEquals(
                    Arrays.asList(
                            c.category().id(), c.tasks(), c.passed(), c.accuracy(), c.unsatisfiable(), c.failures()),
                    r.rows().get(i++));
        }
        int unsat = s.categories().values().stream()
                .mapToInt(BfclScores.CategoryScore::unsatisfiable)
                .sum();
        assertEquals(s.tasks() - s.passed(), unsat, "gold fails exactly the unsatisfiable tasks");
        assertEquals(
                Arrays.asList("total", s.tasks(), s.passed(), null, unsat, 0),
                r.rows().getLast());
        assertEquals(
                List.of(
                        new Report.Figure(BfclScores.LIVE_OVERALL, s.liveOverall()),
                        new Report.Figure(BfclScores.IRRELEVANCE_DETECTION, s.irrelevanceDetection())),
                r.figures().subList(0, 2));
        // Then upstream's overall, segment by segment: non-live (the sample has no unsatisfiable non-live task),
        // live and irrelevance were run, so those three (30% of its weight) make the overall of the segments run,
        // and upstream's own overall is missing.
        assertEquals(
                List.of(
                        new Report.Figure("non-live (10%)", 1.0),
                        new Report.Figure("live (10%)", s.liveOverall()),
                        new Report.Figure("irrelevance (10%)", s.irrelevanceDetection()),
                        new Report.Figure("multi-turn (30%)", null),
                        new Report.Figure("agentic (40%)", null),
                        new Report.Figure("agentic: web search (20%)", null),
                        new Report.Figure("agentic: memory (20%)", null),
                        new Report.Figure(BfclScores.UPSTREAM_OVERALL, null),
                        new Report.Figure(
                                "overall of the segments run (non-live, live, irrelevance: 30% of upstream's weight)",
                                (1.0 + s.liveOverall() + s.irrelevanceDetection()) / 3)),
                r.figures().subList(2, r.figures().size()));

        // One category only: both aggregates cannot be computed.
        Report one = b.reports(outcomes.subList(0, 4)).getFirst();
        assertNull(one.figures().get(0).value());
        assertNull(one.figures().get(1).value());
    }
}
