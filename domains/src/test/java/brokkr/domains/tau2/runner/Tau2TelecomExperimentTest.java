package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.telecom.TelecomBenchmark;
import brokkr.eval.Attempt;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.ToolWorld;
import brokkr.eval.TrustTier;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tau2 telecom on the experiment path (domain {@code tau2-telecom}): gold scores 1.0, stop-at-once 0.0, worlds replay. */
class Tau2TelecomExperimentTest {
    @TempDir Path tmp;

    @Test void telecomTestSplitWithTheGoldAndStopCandidates() throws Exception {
        var gold = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "tools", null);
        var stop = new ExperimentSpec.CandidateSpec("stop-at-once", new ModelRef("scripted", "stop"), "tools", null);
        var spec = new ExperimentSpec("telecom", List.of(new ExperimentSpec.DomainSpec("tau2-telecom", "test", null)),
                List.of(gold, stop), 1, 4, Map.of(), Map.of(), 0, Duration.ofSeconds(120), false);
        Path dir = tmp.resolve("telecom");
        var r = Experiments.run(spec, dir, Registry.load());
        assertEquals(80, r.completed(), r.summary());
        assertEquals(0, r.infrastructureFailures());
        Scorecard.CandidateScore g = r.scorecard().rows().stream().filter(x -> x.candidate().equals("gold")).findFirst().orElseThrow();
        assertEquals(40, g.tasks());
        assertEquals(1.0, g.avgReward());
        assertEquals(List.of("setup_verified", "terminated_normally", "env_assertion", "action"),
                g.perCheck().stream().map(Scorecard.CheckScore::check).toList());
        for (var c : g.perCheck()) assertEquals(0, c.failed(), c.toString());
        assertEquals(Map.of(TrustTier.DETERMINISTIC, 40), g.trust(), "telecom's basis needs no judge");
        Scorecard.CandidateScore s = r.scorecard().rows().stream().filter(x -> x.candidate().equals("stop-at-once")).findFirst().orElseThrow();
        assertEquals(0.0, s.avgReward(), s.toString());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            Registry registry = Registry.load();
            for (Attempt a : store.attempts(true)) assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), "attempt " + a.id());
        }
        var b = new TelecomBenchmark();
        var env = b.environment(b.tasks("test").get(0), Map.of());
        assertEquals(8, env.dataDigests().size(), "telecom's 6 files and the user simulator's 2");
        IllegalArgumentException full = assertThrows(IllegalArgumentException.class, () -> b.tasks("full"));
        assertTrue(full.getMessage().contains("tasks_full.json"), full.getMessage());
    }

    @Test void exploringTelecomForksBothWorlds() {
        Exploration x = Registry.load().benchmarks().get("tau2-telecom").exploration().orElseThrow();
        assertEquals(114, x.summary().tasks());
        assertEquals(13, x.summary().tools().size());
        ToolWorld pristine = x.fork(null);
        ToolWorld.Step step = pristine.call("get_customer_by_id", PyDict.of("customer_id", "C1001"));
        assertTrue(step.result().content().startsWith("{\"customer_id\": \"C1001\", \"full_name\": \"John Smith\""), step.result().content());
        PyDict state = pristine.state().asDict();
        assertEquals(List.of("db", "user_db", "session"), List.copyOf(state.keys()));
        assertEquals(state, step.after().state(), "a read leaves both worlds as they were");
    }
}
