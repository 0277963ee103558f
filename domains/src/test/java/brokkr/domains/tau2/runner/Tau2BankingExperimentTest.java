package brokkr.domains.tau2.runner;

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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tau2 banking_knowledge on the experiment path (domain {@code tau2-banking_knowledge}): gold scores 1.0 on all 97 tasks, stop-at-once fails, worlds replay. */
class Tau2BankingExperimentTest {
    @TempDir Path tmp;

    @Test void bankingWithTheGoldAndStopCandidates() throws Exception {
        var gold = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "tools", null);
        var stop = new ExperimentSpec.CandidateSpec("stop-at-once", new ModelRef("scripted", "stop"), "tools", null);
        var spec = new ExperimentSpec("banking", List.of(new ExperimentSpec.DomainSpec("tau2-banking_knowledge", "base", null)),
                List.of(gold, stop), 1, 4, Map.of(), Map.of(), 0, Duration.ofSeconds(120), false);
        Path dir = tmp.resolve("banking");
        var r = Experiments.run(spec, dir, Registry.load());
        assertEquals(194, r.completed(), r.summary());
        assertEquals(0, r.infrastructureFailures());
        Scorecard.CandidateScore g = r.scorecard().rows().stream().filter(x -> x.candidate().equals("gold")).findFirst().orElseThrow();
        assertEquals(97, g.tasks());
        assertEquals(1.0, g.avgReward());
        for (var c : g.perCheck()) assertEquals(0, c.failed(), c.toString());
        Scorecard.CandidateScore s = r.scorecard().rows().stream().filter(x -> x.candidate().equals("stop-at-once")).findFirst().orElseThrow();
        assertTrue(s.avgReward() < 0.2, s.toString());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Registry registry = Registry.load();
            for (Attempt a : store.attempts(true)) assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), "attempt " + a.id());
        }
    }
}
