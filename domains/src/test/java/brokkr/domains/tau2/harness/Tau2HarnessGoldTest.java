package brokkr.domains.tau2.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gold calls through both loop harnesses score 1.0 on every task of every landed tau2 domain:
 * written as Java through the REPL ({@code harness: loop, action_space: repl}, each snippet a run of
 * gold calls made as {@code tau2.*} methods) and batched several per turn through the JSON tools
 * ({@code harness: loop, action_space: tools}). Every recorded world replays to its hash.
 */
@Tag("proof") // ./test runs the long proofs beside the other tests (the tag selects them)
class Tau2HarnessGoldTest {
    @TempDir
    Path tmp;

    static ExperimentSpec.CandidateSpec repl(String label) {
        return new ExperimentSpec.CandidateSpec(
                label,
                new ModelRef("scripted", "gold"),
                "repl",
                null,
                Harness.of("loop", "repl", "shape", PyDict.empty()));
    }

    static ExperimentSpec.CandidateSpec loop(String label) {
        return new ExperimentSpec.CandidateSpec(
                label,
                new ModelRef("scripted", "gold-batch"),
                "tools",
                null,
                Harness.of("loop", "tools", null, PyDict.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tau2-retail", "tau2-airline", "tau2-telecom", "tau2-banking_knowledge"})
    void goldThroughTheReplAndTheBatchingLoopScoresOneOnEveryTask(String domain) throws Exception {
        List<String> all = Registry.load().benchmarks().get(domain).tasks("base");
        // Every task through both; -Dbrokkr.harness.sample=true takes every 6th through the REPL for a quick local
        // check.
        List<String> replTasks = !Boolean.getBoolean("brokkr.harness.sample")
                ? all
                : IntStream.range(0, all.size())
                        .filter(i -> i % 6 == 0)
                        .mapToObj(all::get)
                        .toList();
        var loopSpec = new ExperimentSpec(
                "harness-gold-loop",
                List.of(new ExperimentSpec.DomainSpec(domain, "base", null)),
                List.of(loop("gold-loop")),
                1,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(300),
                false);
        var replSpec = new ExperimentSpec(
                "harness-gold-repl",
                List.of(new ExperimentSpec.DomainSpec(domain, null, replTasks)),
                List.of(repl("gold-repl")),
                1,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(300),
                false);
        check(loopSpec, "gold-loop", all.size(), tmp.resolve(domain + "-loop"));
        check(replSpec, "gold-repl", replTasks.size(), tmp.resolve(domain + "-repl"));
    }

    private static void check(ExperimentSpec spec, String c, int tasks, Path dir) throws Exception {
        var r = Experiments.run(spec, dir, Registry.load());
        assertEquals(0, r.infrastructureFailures(), r.summary());
        {
            Scorecard.CandidateScore s = r.scorecard().rows().stream()
                    .filter(x -> x.candidate().equals(c))
                    .findFirst()
                    .orElseThrow();
            assertEquals(tasks, s.tasks(), c);
            for (var t : s.perTask()) assertEquals(1.0, t.avgReward(), c + " task " + t);
            assertEquals(1.0, s.avgReward(), c);
        }
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Registry registry = Registry.load();
            for (Attempt a : store.attempts(true))
                assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), "attempt " + a.id());
        }
    }
}
