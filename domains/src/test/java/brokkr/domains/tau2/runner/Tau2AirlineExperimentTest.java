package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.airline.AirlineBenchmark;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.experiment.ExperimentQuery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tau2 airline on the experiment path (domain {@code tau2-airline}): gold scores 1.0 on DB and COMMUNICATE, worlds replay. */
class Tau2AirlineExperimentTest {
    @TempDir Path tmp;

    @Test void airlineTestSplitWithTheGoldCandidate() throws Exception {
        var gold = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "tools", null);
        var stop = new ExperimentSpec.CandidateSpec("stop-at-once", new ModelRef("scripted", "stop"), "tools", null);
        var spec = new ExperimentSpec("airline", List.of(new ExperimentSpec.DomainSpec("tau2-airline", "test", null)),
                List.of(gold, stop), 1, 4, Map.of(), Map.of(), 0, Duration.ofSeconds(120), false);
        Path dir = tmp.resolve("airline");
        var r = Experiments.run(spec, dir, Registry.load());
        assertEquals(40, r.completed(), r.summary());
        assertEquals(0, r.infrastructureFailures());
        Scorecard.CandidateScore g = r.scorecard().rows().stream().filter(x -> x.candidate().equals("gold")).findFirst().orElseThrow();
        assertEquals(20, g.tasks());
        assertEquals(1.0, g.avgReward());
        assertEquals(List.of("setup_verified", "terminated_normally", "db", "communicate"),
                g.perCheck().stream().map(Scorecard.CheckScore::check).toList());
        for (var c : g.perCheck()) assertEquals(0, c.failed(), c.toString());
        assertEquals(Map.of(TrustTier.DETERMINISTIC, 20), g.trust(), "airline's basis needs no judge");
        Scorecard.CandidateScore s = r.scorecard().rows().stream().filter(x -> x.candidate().equals("stop-at-once")).findFirst().orElseThrow();
        assertTrue(s.avgReward() < 1.0, s.toString());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Registry registry = Registry.load();
            for (Attempt a : store.attempts(true)) assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), "attempt " + a.id());
        }
        var env = new AirlineBenchmark().environment("0", Map.of());
        assertEquals(6, env.dataDigests().size(), "airline's 4 files and the user simulator's 2");
        assertEquals("0eaaaba983972a5b14c762b8b0754ce92a1c3443e288010b0d16a5e5f59b3e16", env.dataDigests().get("data/tau2/domains/airline/db.json"));
    }
}
