package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.repl.Harness;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BFCL on the experiment path: the scripted gold candidate through both action spaces. */
class BfclExperimentTest {
    @TempDir
    Path tmp;

    static final List<String> UNSAT = List.of(
            "simple_java_36",
            "simple_java_65",
            "live_simple_106-63-0",
            "live_simple_112-68-0",
            "live_multiple_862-181-3",
            "live_multiple_964-207-0");

    @Test
    void registeredAsAService() {
        assertTrue(Registry.load().benchmarks().get("bfcl") instanceof BfclBenchmark);
    }

    @Test
    void environmentDefsMarkTheUnsatisfiableTasks() {
        BfclBenchmark b = new BfclBenchmark(Shared.data());
        int marked = 0;
        for (String id : b.tasks("all")) {
            EnvironmentDef env = b.environment(id, Map.of());
            if (BfclBenchmark.unsatisfiable(env)) {
                marked++;
                assertTrue(UNSAT.contains(id), id);
            }
        }
        assertEquals(6, marked);
        assertEquals(3641, b.tasks("all").size());
        assertEquals(26, b.tasks("smoke").size());
        assertEquals(16, b.tasks("live_parallel").size());
    }

    @Test
    void goldPassesEverySatisfiableTaskThroughBothActionSpaces() {
        List<String> tasks = new ArrayList<>(new BfclBenchmark(Shared.data()).tasks("smoke"));
        for (String u : UNSAT) if (!tasks.contains(u)) tasks.add(u);
        tasks.addAll(List.of("simple_python_1", "parallel_multiple_10"));
        var gold = new ExperimentSpec.CandidateSpec("gold-tools", new ModelRef("scripted", "gold"), "tools", null);
        var goldRef = new ExperimentSpec.CandidateSpec(
                "gold-reference",
                new ModelRef("scripted", "gold", PyDict.of("parallel_tool_calls", true)),
                "reference",
                null);
        var spec = new ExperimentSpec(
                "bfcl",
                List.of(new ExperimentSpec.DomainSpec("bfcl", null, tasks)),
                List.of(gold, goldRef),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("bfcl"), Registry.load());
        assertEquals(2 * tasks.size(), r.completed());
        for (Scorecard.CandidateScore row : r.scorecard().rows()) {
            assertEquals(
                    (double) (tasks.size() - UNSAT.size()) / tasks.size(), row.avgReward(), 1e-12, row.candidate());
        }
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("bfcl"))) {
            for (Attempt a : store.attempts(true)) {
                assertEquals(UNSAT.contains(a.taskId()) ? 0.0 : 1.0, a.reward(), a.taskId());
                assertEquals(
                        PyBool.of(UNSAT.contains(a.taskId())),
                        a.evidence().details().get("unsatisfiable"),
                        a.taskId());
            }
        }
    }

    @Test
    void goldThroughTheLoopHarnessPassesEverySatisfiableTaskOfAll3641() {
        List<String> tasks = new BfclBenchmark(Shared.data()).tasks("all");
        var loop = new ExperimentSpec.CandidateSpec(
                "gold-loop",
                new ModelRef("scripted", "gold"),
                "tools",
                null,
                Harness.of("loop", "tools", null, PyDict.empty()));
        var spec = new ExperimentSpec(
                "bfcl-loop",
                List.of(new ExperimentSpec.DomainSpec("bfcl", null, tasks)),
                List.of(loop),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("bfcl-loop"), Registry.load());
        assertEquals(3641, r.completed(), r.summary());
        int passed = 0;
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("bfcl-loop"))) {
            for (Attempt a : store.attempts(true)) {
                assertEquals(
                        UNSAT.contains(a.taskId()) ? 0.0 : 1.0,
                        a.reward(),
                        a.taskId() + " " + a.evidence().details());
                if (a.reward() == 1.0) passed++;
            }
        }
        assertEquals(3635, passed);
    }
}
