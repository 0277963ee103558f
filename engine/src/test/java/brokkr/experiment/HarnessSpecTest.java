package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.repl.Harness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Harness keys of an experiment file's candidates: parsed into the candidate's content, bad ones refused. */
class HarnessSpecTest {
    static ExperimentSpec parse(String candidates) {
        return ExperimentSpec.parse(
                "name: h\ndomain: loop\nsplit: smoke\ncandidates:\n" + candidates, true, "test.yaml", "h", null);
    }

    @Test
    void harnessKeysBecomeTheCandidatesContent() {
        ExperimentSpec s = parse("""
                  - {id: ref, provider: scripted, model: gold}
                  - {id: loop, provider: scripted, model: gold, harness: loop}
                  - {id: shape, provider: scripted, model: gold, harness: loop, action_space: repl}
                  - {id: compute, provider: scripted, model: gold, harness: loop, action_space: repl, repl_guidance: compute,
                     harness_options: {output_limit: 2000, eval_timeout_seconds: 5}}
                """);
        List<ExperimentSpec.CandidateSpec> c = s.candidates();
        assertEquals(Harness.DEFAULT_REFERENCE, c.get(0).harness());
        assertTrue(c.get(0).agentDef().harness().isEmpty());
        assertEquals("loop/tools", c.get(1).harness().label());
        assertEquals("loop/repl:shape", c.get(2).harness().label());
        Harness compute = c.get(3).harness();
        assertEquals("loop/repl:compute", compute.label());
        assertEquals(2000, compute.outputLimit());
        assertEquals(5, compute.evalTimeoutSeconds());
        assertEquals(4, c.stream().map(x -> x.agentDef().id()).distinct().count());
        assertNotEquals(c.get(2).agentDef().id(), c.get(3).agentDef().id());
        assertEquals(compute, Harness.fromValue(c.get(3).agentDef().harness()));
    }

    @Test
    void badHarnessesAreSpecErrorsNamingTheCandidate() {
        for (String bad : List.of(
                "harness: spiral",
                "harness: loop, action_space: repl, repl_guidance: guess",
                "repl_guidance: shape",
                "harness: loop, harness_options: {eval_timeout_seconds: 5}",
                "harness: loop, action_space: repl, harness_options: {heap_mb: 0}")) {
            var e = assertThrows(
                    ExperimentSpec.SpecException.class,
                    () -> parse("  - {id: x, provider: scripted, model: gold, " + bad + "}\n"));
            assertTrue(e.getMessage().startsWith("candidate x: "), e.getMessage());
        }
    }
}
