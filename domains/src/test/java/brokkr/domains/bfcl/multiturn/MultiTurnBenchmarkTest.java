package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.eval.Report;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bfcl-multi-turn on the experiment path: the scripted reference candidate through upstream's loop and checker. */
class MultiTurnBenchmarkTest {
    @TempDir
    Path tmp;

    @Test
    void registeredWithSplits() {
        MultiTurnBenchmark b = (MultiTurnBenchmark) Registry.load().benchmarks().get("bfcl-multi-turn");
        assertEquals(800, b.tasks("all").size());
        assertEquals(200, b.tasks("multi_turn_base").size());
        assertEquals(400, b.tasks("multi_turn_base,multi_turn_miss_func").size());
        assertEquals(8, b.tasks("smoke").size());
        assertThrows(IllegalArgumentException.class, () -> b.tasks("multi_turn_composite"));
        assertEquals(
                "multi_turn_long_context",
                b.environment("multi_turn_long_context_3", Map.of())
                        .options()
                        .get("category")
                        .asStr());
        assertTrue(b.environment("multi_turn_long_context_3", Map.of())
                .dataDigests()
                .containsKey(LongContextData.UPSTREAM_PATH));
    }

    /** Ground truth played as a model (one step per turn, then a text step) is graded valid by upstream's checker. */
    @Test
    void goldPassesThroughTheExperimentPath() {
        MultiTurnBenchmark b = (MultiTurnBenchmark) Registry.load().benchmarks().get("bfcl-multi-turn");
        List<String> tasks = new ArrayList<>();
        for (String c : List.of("multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param")) {
            int n = 0;
            for (String id : b.tasks(c)) {
                // Tasks whose classes all have a backend on this branch.
                if (n < 3
                        && b.task(id).involvedClasses().stream()
                                .allMatch(x -> Backends.find(x).isPresent())) {
                    tasks.add(id);
                    n++;
                }
            }
        }
        var gold = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "reference", null);
        var spec = new ExperimentSpec(
                "mt",
                List.of(new ExperimentSpec.DomainSpec("bfcl-multi-turn", null, tasks)),
                List.of(gold),
                1,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(120),
                false);
        var r = Experiments.run(spec, tmp.resolve("mt"), Registry.load());
        assertEquals(tasks.size(), r.completed());
        List<Report.Outcome> outcomes = new ArrayList<>();
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("mt"))) {
            for (Attempt a : store.attempts(true)) {
                assertEquals(1.0, a.reward(), a.taskId() + " " + a.evidence().details());
                outcomes.add(new Report.Outcome(b.environment(a.taskId(), Map.of()), a));
            }
        }
        Report report = b.reports(outcomes).getFirst();
        assertEquals(List.of("multi_turn_base", 3, 3, 1.0), report.rows().getFirst());
        assertNull(report.figures().getFirst().value()); // long_context not run
    }

    @Test
    void aCandidateThatSkipsTurnsIsGradedAsUpstream() {
        MultiTurnData data = MultiTurnData.load();
        MultiTurnData.Task t = data.task("multi_turn_base_50");
        List<Object> turns = new ArrayList<>();
        for (int i = 0; i < t.groundTruth().size(); i++) turns.add(brokkr.python.PyObjects.list());
        MultiTurnChecker.Verdict v =
                MultiTurnChecker.check(t, brokkr.python.PyObjects.listOf(turns), MultiTurnBenchmark.MODEL_NAME);
        assertEquals("multi_turn:empty_turn_model_response", v.errorType());
        assertEquals("Model response list is empty for turn 0", v.errorMessage());
    }
}
