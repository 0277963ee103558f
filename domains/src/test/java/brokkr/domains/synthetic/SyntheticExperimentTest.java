package brokkr.domains.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.InfrastructureFailure;
import brokkr.domains.synthetic.loop.LoopBenchmark;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.domains.synthetic.loop.PointerChasing;
import brokkr.domains.synthetic.parallel.Batcher;
import brokkr.domains.synthetic.parallel.ConcurrencyGauge;
import brokkr.domains.synthetic.parallel.LookupTable;
import brokkr.domains.synthetic.parallel.ParallelBenchmark;
import brokkr.domains.synthetic.parallel.ParallelDiscrimination;
import brokkr.eval.Attempt;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The synthetic benchmarks on the experiment path, with their scripted candidates. */
class SyntheticExperimentTest {
    @TempDir
    Path tmp;

    static ExperimentSpec.CandidateSpec c(String label, String model) {
        return new ExperimentSpec.CandidateSpec(label, new ModelRef("scripted", model), "tools", null);
    }

    static Scorecard.CandidateScore row(Scorecard s, String bench, String cand) {
        return s.rows().stream()
                .filter(r -> r.benchmark().equals(bench) && r.candidate().equals(cand))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void servicesRegisterBothBenchmarks() {
        Registry r = Registry.load();
        assertTrue(r.benchmarks().get("loop") instanceof LoopBenchmark);
        assertTrue(r.benchmarks().get("parallel") instanceof ParallelBenchmark);
    }

    @Test
    void anUnknownScriptedCandidateIsASpecError() {
        var spec = new ExperimentSpec(
                "x",
                List.of(new ExperimentSpec.DomainSpec("loop", "smoke", null)),
                List.of(c("x", "batch")),
                1,
                1,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                ExperimentSpec.SpecException.class, () -> Experiments.run(spec, tmp.resolve("x"), Registry.load()));
        assertTrue(e.getMessage().contains("unknown loop candidate 'batch'"), e.getMessage());
    }

    @Test
    void loopScorecardAgreesWithPointerChasingScore() {
        var spec = new ExperimentSpec(
                "loop",
                List.of(new ExperimentSpec.DomainSpec("loop", "smoke", null)),
                List.of(c("ideal", "ideal"), c("early", "early-stop"), c("retry", "retry")),
                2,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("loop"), Registry.load());
        assertEquals(12, r.completed());
        Scorecard s = r.scorecard();
        assertEquals(List.of(1.0, 1.0), row(s, "loop", "ideal").passHatK());
        assertEquals(List.of(0.0, 0.0), row(s, "loop", "early").passHatK());
        assertEquals(List.of(0.0, 0.0), row(s, "loop", "retry").passHatK());
        // The retrier assembles the secret in one call too many: it loses on the call count only.
        var retry = row(s, "loop", "retry").perCheck();
        assertEquals(new Scorecard.CheckScore("secret_correct", 4, 0), retry.get(2));
        assertEquals(new Scorecard.CheckScore("exact_tool_calls", 4, 4), retry.get(3));
        assertEquals(
                new Scorecard.CheckScore("secret_correct", 4, 4),
                row(s, "loop", "early").perCheck().get(2));

        // Each verdict is PointerChasing.score's PASS/FAIL for the same candidate and depth.
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("loop"))) {
            Map<String, String> labels = new java.util.HashMap<>();
            store.cells().forEach(cell -> labels.put(cell.key().agentId(), cell.candidate()));
            for (Attempt a : store.attempts(true)) {
                PointerChain chain = PointerChain.of(Integer.parseInt(a.taskId()));
                String label = labels.get(a.agentId());
                LoopFollower f = LoopFollower.named(label.equals("early") ? "early-stop" : label, chain.depth());
                boolean passed = PointerChasing.score(chain, PointerChasing.play(chain, f))
                        .passed();
                assertEquals(passed ? 1.0 : 0.0, a.reward(), labels.get(a.agentId()) + " depth " + a.taskId());
                assertTrue(Inspect.verifyWorld(store, Registry.load(), a.id()).matches());
            }
            String t = Inspect.transcript(store, store.attempts(true).getFirst().id());
            assertTrue(t.contains("\n    -> follow_pointer({\"key\": \"k"), t);
        }
    }

    @Test
    void parallelScorecardAgreesWithParallelDiscriminationScore() {
        var spec = new ExperimentSpec(
                "par",
                List.of(new ExperimentSpec.DomainSpec("parallel", "test", null)),
                List.of(c("batch", "batch"), c("serial", "serial")),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("par"), Registry.load());
        assertEquals(6, r.completed());
        for (String cand : List.of("batch", "serial")) {
            assertEquals(List.of(1.0), row(r.scorecard(), "parallel", cand).passHatK(), cand);
            for (int n : List.of(4, 8, 16)) {
                LookupTable table = LookupTable.of(n);
                var t = ParallelDiscrimination.play(table, Batcher.named(cand), new ConcurrencyGauge());
                assertTrue(ParallelDiscrimination.score(table, t, 0).correct());
            }
        }
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("par"))) {
            for (Attempt a : store.attempts(true)) {
                int n = Integer.parseInt(a.taskId());
                var details = a.evidence().details();
                boolean batch = a.evidence().modelCalls().isEmpty()
                        && a.evidence().transcript().asList().size() == 2 + 1 + n + 1;
                long turns = ((brokkr.value.PyInt) details.get("turns")).longValue();
                assertTrue(turns == 1 || turns == n, "turns " + turns);
                assertEquals(batch, turns == 1);
            }
        }
    }

    @Test
    void aCandidateSystemPromptPrecedesTheTaskAndIsANewCandidate() {
        var plain = c("ideal", "ideal");
        var prompted =
                new ExperimentSpec.CandidateSpec("ideal", new ModelRef("scripted", "ideal"), "tools", "Be careful.");
        var spec = new ExperimentSpec(
                "p",
                List.of(new ExperimentSpec.DomainSpec("loop", null, List.of("5"))),
                List.of(plain),
                1,
                1,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        Path dir = tmp.resolve("p");
        Experiments.run(spec, dir, Registry.load());
        var second = Experiments.run(
                new ExperimentSpec(
                        "p",
                        spec.domains(),
                        List.of(prompted),
                        1,
                        1,
                        Map.of(),
                        Map.of(),
                        0,
                        Duration.ofSeconds(60),
                        false),
                dir,
                Registry.load());
        assertEquals(1, second.ran());
        assertEquals(1.0, second.scorecard().rows().getFirst().avgReward());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            String t = Inspect.transcript(store, store.attempts(true).getFirst().id());
            assertTrue(t.contains("\n[system] Be careful.\n\n    Your task is to follow a chain"), t);
        }
    }

    @Test
    void anUnreachableModelIsAnInfrastructureFailureNotAFail() {
        ModelFactory down = new ModelFactory() {
            @Override
            public String provider() {
                return "down";
            }

            @Override
            public brokkr.conversation.Candidate create(ModelRef m) {
                return (h, t) -> {
                    throw new InfrastructureFailure("HTTP 503 after 5 attempts", List.of(), null);
                };
            }
        };
        var spec = new ExperimentSpec(
                "d",
                List.of(new ExperimentSpec.DomainSpec("loop", "smoke", null)),
                List.of(new ExperimentSpec.CandidateSpec("m", new ModelRef("down", "m"), "tools", null)),
                1,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("d"), Registry.load().with(List.of(), List.of(down)));
        assertEquals(2, r.infrastructureFailures());
        assertEquals(0, r.scorecard().rows().getFirst().attempts());
        assertEquals(List.of(), r.scorecard().rows().getFirst().passHatK());
    }
}
