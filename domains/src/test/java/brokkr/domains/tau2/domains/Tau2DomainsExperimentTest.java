package brokkr.domains.tau2.domains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.eval.TrustTier;
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
import java.util.TreeSet;
import java.util.function.DoublePredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every registered tau2 domain on the experiment path ({@code tau2-<domain>}): the scripted gold candidate scores
 * 1.0 on every task of a split with no check failed, stopping at once scores (almost) nothing, and every attempt's
 * final world replays from its record. Retail's own experiment test (Tau2ExperimentTest) goes further.
 */
class Tau2DomainsExperimentTest {
    @TempDir
    Path tmp;

    /**
     * What a domain's experiment shows: the split, its tasks, gold's checks in order and trust tiers, how stop
     * scores, and how many upstream files an environment pins (the domain's and the user simulator's 2).
     */
    record Expected(
            String split,
            int tasks,
            List<String> goldChecks,
            Map<TrustTier, Integer> goldTrust,
            String stop,
            DoublePredicate stopReward,
            int digests) {}

    static final Map<String, Expected> EXPECTED = Map.of(
            "airline",
                    new Expected(
                            "test",
                            20,
                            List.of("setup_verified", "terminated_normally", "db", "communicate"),
                            Map.of(TrustTier.DETERMINISTIC, 20),
                            "< 1.0",
                            r -> r < 1.0,
                            6),
            "banking_knowledge",
                    new Expected(
                            "base",
                            97,
                            null,
                            null,
                            "< 0.2",
                            r -> r < 0.2,
                            816), // upstream-files.sha256, the user simulator's among them
            "retail",
                    new Expected(
                            "test",
                            40,
                            List.of("setup_verified", "terminated_normally", "db", "nl_assertion"),
                            // the 11 test tasks with NL assertions are judged by the known verdict: self-reported
                            Map.of(TrustTier.DETERMINISTIC, 29, TrustTier.SELF_REPORTED, 11),
                            "0.05",
                            r -> Math.abs(r - 0.05) < 1e-12,
                            4 + 2),
            "telecom",
                    new Expected(
                            "test",
                            40,
                            List.of("setup_verified", "terminated_normally", "env_assertion", "action"),
                            Map.of(TrustTier.DETERMINISTIC, 40),
                            "0.0",
                            r -> r == 0.0,
                            6 + 2));

    static Stream<String> domains() {
        return Tau2Domains.names().stream();
    }

    @Test
    void everyRegisteredDomainHasItsExpectations() {
        assertEquals(new TreeSet<>(EXPECTED.keySet()), new TreeSet<>(Tau2Domains.names()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("domains")
    void goldScoresOneStopAlmostNothingAndWorldsReplay(String domain) throws Exception {
        Expected x = EXPECTED.get(domain);
        Tau2Benchmark b = Tau2Domains.benchmark(domain);
        var gold = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "tools", null);
        var stop = new ExperimentSpec.CandidateSpec("stop-at-once", new ModelRef("scripted", "stop"), "tools", null);
        var spec = new ExperimentSpec(
                domain,
                List.of(new ExperimentSpec.DomainSpec(b.name(), x.split(), null)),
                List.of(gold, stop),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(120),
                false);
        Path dir = tmp.resolve(domain);
        var r = Experiments.run(spec, dir, Registry.load());
        assertEquals(2 * x.tasks(), r.completed(), r.summary());
        assertEquals(0, r.infrastructureFailures());
        Scorecard.CandidateScore g = r.scorecard().rows().stream()
                .filter(c -> c.candidate().equals("gold"))
                .findFirst()
                .orElseThrow();
        assertEquals(x.tasks(), g.tasks());
        assertEquals(1.0, g.avgReward());
        if (x.goldChecks() != null)
            assertEquals(
                    x.goldChecks(),
                    g.perCheck().stream().map(Scorecard.CheckScore::check).toList());
        for (var c : g.perCheck()) assertEquals(0, c.failed(), c.toString());
        if (x.goldTrust() != null) assertEquals(x.goldTrust(), g.trust());
        Scorecard.CandidateScore s = r.scorecard().rows().stream()
                .filter(c -> c.candidate().equals("stop-at-once"))
                .findFirst()
                .orElseThrow();
        assertTrue(x.stopReward().test(s.avgReward()), "stop-at-once should score " + x.stop() + ": " + s);
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Registry registry = Registry.load();
            for (Attempt a : store.attempts(true))
                assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), "attempt " + a.id());
        }
        assertEquals(
                x.digests(),
                b.environment(b.tasks(x.split()).get(0), Map.of()).dataDigests().size());
    }
}
