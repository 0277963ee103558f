package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BFCL through the REPL action space: the scripted gold writes each accepted answer as Java recorder
 * calls ({@code f(map(...))}), every call of the one evaluation is one emitted call, and the checker
 * passes every satisfiable task and fails the six unsatisfiable ones: all 3,641 tasks, a sandbox JVM
 * each. {@code -Dbrokkr.harness.sample=true} runs a sample for a quick local check (the smoke split, the
 * unsatisfiable tasks, the parallel categories' first tasks and every simple_java / simple_javascript task,
 * whose values are Java / JavaScript source text in strings).
 */
@Tag("proof") // ./test runs the long proofs beside the other tests (the tag selects them)
class BfclReplTest {
    @TempDir
    Path tmp;

    @Test
    void goldThroughTheReplPassesEverySatisfiableTask() throws Exception {
        BfclBenchmark b = new BfclBenchmark(Shared.data());
        List<String> tasks = new ArrayList<>();
        if (!Boolean.getBoolean("brokkr.harness.sample")) {
            tasks.addAll(b.tasks("all"));
            assertEquals(3641, tasks.size());
        } else {
            tasks.addAll(b.tasks("smoke"));
            tasks.addAll(BfclExperimentTest.UNSAT);
            for (String c : List.of("parallel", "parallel_multiple", "live_parallel", "live_parallel_multiple"))
                tasks.addAll(b.tasks(c).subList(0, 2));
            tasks.addAll(b.tasks("simple_java"));
            tasks.addAll(b.tasks("simple_javascript"));
            tasks = new ArrayList<>(new java.util.LinkedHashSet<>(tasks));
        }
        var repl = new ExperimentSpec.CandidateSpec(
                "gold-repl",
                new ModelRef("scripted", "gold"),
                "repl",
                null,
                Harness.of("loop", "repl", "compute", PyDict.empty()));
        var spec = new ExperimentSpec(
                "bfcl-repl",
                List.of(new ExperimentSpec.DomainSpec("bfcl", null, tasks)),
                List.of(repl),
                1,
                // Four episodes at once: the suite's longest proof (./test runs it beside the others), so when it
                // runs alone at the end it still keeps both cores busy while episodes wait on their sandbox JVMs.
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(120),
                false);
        var r = Experiments.run(spec, tmp.resolve("bfcl"), Registry.load());
        assertEquals(tasks.size(), r.completed(), r.summary());
        int passed = 0, parallelCalls = 0, javaJsPassed = 0;
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("bfcl"))) {
            for (Attempt a : store.attempts(true)) {
                boolean unsat = BfclExperimentTest.UNSAT.contains(a.taskId());
                assertEquals(
                        unsat ? 0.0 : 1.0,
                        a.reward(),
                        a.taskId() + " " + a.evidence().details() + " "
                                + a.evidence().output());
                if (a.reward() == 1.0) passed++;
                if (a.reward() == 1.0 && a.taskId().startsWith("simple_java")) javaJsPassed++;
                if (a.evidence().output().get("answer") instanceof PyList l && l.size() > 1) parallelCalls++;
            }
        }
        assertEquals(tasks.size() - BfclExperimentTest.UNSAT.size(), passed);
        assertEquals(148, javaJsPassed, "every satisfiable simple_java / simple_javascript task (all 150 but two)");
        assertTrue(parallelCalls >= 8, "parallel answers are several calls of one snippet: " + parallelCalls);
    }
}
