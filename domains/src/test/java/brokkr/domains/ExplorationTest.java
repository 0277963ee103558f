package brokkr.domains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.ToolWorld;
import brokkr.experiment.Registry;
import brokkr.value.PyDict;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every domain's exploration, held against its own provider: the same tasks, the same worlds, runs it can read. */
class ExplorationTest {
    private static final Registry REGISTRY = Registry.load();

    private static BenchmarkProvider provider(String name) {
        return REGISTRY.benchmark(name);
    }

    private static Exploration exploration(String name) {
        return provider(name).exploration().orElseThrow();
    }

    private static Attempt run(String domain, String candidate, String taskId) {
        BenchmarkProvider p = provider(domain);
        EnvironmentDef env = p.environment(taskId, Map.of());
        AgentDef agent = AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, candidate), "tools", null);
        return Evaluation.evaluate(
                new Evaluation.Cell(p, env, agent, null, 0),
                ref -> {
                    throw new AssertionError("no model expected: " + ref);
                },
                new Evaluation.Recorder());
    }

    /** The hash the run's world setup reported, under the domain's evidence name. */
    private static String initialHash(Attempt a) {
        Value h = a.evidence().setup().get("initial_world_sha256");
        return (h != null ? h : a.evidence().setup().get("initial_db_hash")).asStr();
    }

    @Test
    void everyRegisteredDomainExploresItselfInRegistrationOrder() {
        assertEquals(
                List.of(
                        "loop",
                        "parallel",
                        "tau2-retail",
                        "tau2-airline",
                        "tau2-telecom",
                        "tau2-banking_knowledge",
                        "bfcl",
                        "bfcl-multi-turn",
                        "wiki"),
                REGISTRY.benchmarks().values().stream()
                        .filter(p -> p.exploration().isPresent())
                        .map(BenchmarkProvider::name)
                        .toList());
    }

    @Test
    void everyOfferedCandidateRunsOnTheEvaluationPathAndTheExplorationReadsIt() {
        for (String domain : List.of("loop", "parallel", "tau2-retail", "wiki")) {
            Exploration x = exploration(domain);
            String task = x.tasks().getFirst().id();
            for (String candidate : x.candidates()) {
                Attempt a = run(domain, candidate, task);
                assertTrue(a.completed(), domain + "/" + candidate + ": " + a.error());
                assertEquals(
                        x.task(task).initialWorldHash(),
                        initialHash(a),
                        domain + ": exploration and provider disagree on the world");
                Exploration.RunReport r = x.report(a);
                assertFalse(r.resultLine().isBlank());
                assertFalse(r.checks().isEmpty(), domain + "/" + candidate);
                // a report passes every check exactly when the attempt succeeded
                assertEquals(
                        a.success(),
                        r.checks().stream().allMatch(Exploration.CheckLine::passed),
                        domain + "/" + candidate + ": " + r);
            }
        }
    }

    @Test
    void syntheticReportsSayHowTheCandidateLost() {
        Exploration.RunReport retry = exploration("loop").report(run("loop", "retry", "12"));
        assertEquals(
                new Exploration.CheckLine("one call per hop", false, "13/12 calls"),
                retry.checks().get(1));
        assertTrue(retry.resultLine().startsWith("FAIL depth=12 toolCalls=13/12"), retry.resultLine());
        Exploration.RunReport serial = exploration("parallel").report(run("parallel", "serial", "4"));
        assertEquals("pd tasks=4 calls=4 turns=4 maxConcurrency=1 efficiency=1.0 correct=yes", serial.resultLine());
    }

    @Test
    void aTau2ForkAnswersAsAnEpisodeAndLeavesTheWorldItCameFrom() {
        Exploration x = exploration("tau2-retail");
        ToolWorld w = x.fork("0");
        String before = WorldHash.sha256(w.state(), true);
        assertEquals(x.task("0").initialWorldHash(), before);
        ToolWorld.Step cancel =
                w.call("cancel_pending_order", PyDict.of("order_id", "#W5918442", "reason", "no longer needed"));
        assertFalse(cancel.result().error(), cancel.result().content());
        assertEquals(before, WorldHash.sha256(w.state(), true));
        assertNotEquals(before, WorldHash.sha256(cancel.after().state(), true));
        assertTrue(cancel.after()
                .call("cancel_pending_order", PyDict.of("order_id", "#W5918442", "reason", "no longer needed"))
                .result()
                .error());
        assertTrue(w.call("no_such_tool", PyDict.empty()).result().error());
        assertEquals(before, WorldHash.sha256(x.fork(null).state(), true), "retail tasks start from the pristine DB");
        assertThrows(IllegalArgumentException.class, () -> x.fork("9999"));
    }

    @Test
    void tau2ReportsMarkEachUpstreamCheckAsBasisOrDiagnostic() {
        Exploration.RunReport stop = exploration("tau2-retail").report(run("tau2-retail", "stop", "0"));
        assertEquals(
                new Exploration.CheckLine("DB", false, "in the reward basis"),
                stop.checks().getFirst());
        assertTrue(
                stop.checks().stream()
                        .filter(c -> c.name().startsWith("ACTION:"))
                        .allMatch(c -> c.detail().equals("diagnostic (not in the reward basis)")),
                stop.toString());
        assertTrue(stop.resultLine().startsWith("reward 0.0, "), stop.resultLine());
    }

    /** Task 5's basis is DB and NL_ASSERTION, and it states no NL assertions: both components are listed, basis first. */
    @Test
    void tau2ReportsListEveryRewardBasisComponentEvenWithoutChecks() {
        for (String candidate : List.of("gold", "stop")) {
            Exploration.RunReport r = exploration("tau2-retail").report(run("tau2-retail", candidate, "5"));
            List<String> names =
                    r.checks().stream().map(Exploration.CheckLine::name).toList();
            assertEquals(List.of("DB", "NL_ASSERTION"), names.subList(0, 2), r.toString());
            assertEquals(
                    new Exploration.CheckLine(
                            "NL_ASSERTION", true, "in the reward basis: no NL assertions in this task, scored 1.0"),
                    r.checks().get(1));
            assertEquals(candidate.equals("gold"), r.checks().getFirst().passed());
            assertTrue(
                    r.checks().subList(2, r.checks().size()).stream()
                            .allMatch(c ->
                                    c.name().startsWith("ACTION:") && c.detail().startsWith("diagnostic")),
                    r.toString());
        }
    }

    @Test
    void bfclHasNoWorldAndNoSingleRuns() {
        Exploration x = exploration("bfcl");
        assertEquals(x.summary().tasks(), x.tasks().size());
        assertTrue(x.candidates().isEmpty());
        String id = x.tasks().getFirst().id();
        assertTrue(assertThrows(UnsupportedOperationException.class, () -> x.fork(id))
                .getMessage()
                .contains("no world to fork"));
        assertThrows(IllegalArgumentException.class, () -> x.task("no-such-task"));
    }
}
