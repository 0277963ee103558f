package brokkr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvaluationTest {
    /** A one-task benchmark whose protocol greets, then loses its model: the orchestrator-style fault of tau2. */
    static final class Cut implements BenchmarkProvider {
        @Override
        public String name() {
            return "cut";
        }

        @Override
        public List<String> tasks(String split) {
            return List.of("t");
        }

        @Override
        public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
            return new EnvironmentDef(name(), "v1", Map.of(), taskId, Map.of(), null);
        }

        @Override
        public WorldSetup worldSetup() {
            return (env, fork) -> {
                fork.set(PyDict.empty());
                return PyDict.of("ok", true);
            };
        }

        @Override
        public Protocol protocol() {
            return ctx -> {
                PyList transcript = Transcripts.toValue(List.of(new Message.Assistant("hello")));
                throw new InterruptedInteraction(
                        "model gone after the greeting",
                        List.of(),
                        new Interaction(transcript, PyDict.of("steps", 1), "infrastructure_error"));
            };
        }

        @Override
        public Evaluator evaluator() {
            return (run, models) -> {
                throw new AssertionError("not graded");
            };
        }
    }

    static final AgentDef AGENT = new AgentDef("test", "m", "tools", null, null);

    @Test
    void anInterruptedInteractionKeepsWhatItRecordedInTheFailedAttempt() {
        Cut b = new Cut();
        Attempt a = Evaluation.evaluate(
                new Evaluation.Cell(b, b.environment("t", Map.of()), AGENT, null, 0),
                ref -> (history, tools) -> Turn.of(new Message.Assistant("unused")),
                new Evaluation.Recorder());
        assertFalse(a.completed());
        assertEquals("infrastructure failure: model gone after the greeting", a.error());
        assertEquals("infrastructure_error", a.evidence().termination());
        assertEquals(1, a.evidence().transcript().asList().size());
        assertEquals(PyDict.of("steps", 1), a.evidence().output());
        assertEquals(PyDict.of("ok", true), a.evidence().setup());
        assertTrue(a.evidence().finalWorldSha256() == null, "the run never reached its final world");
    }

    @Test
    void aBenchmarkWithoutSettingsRefusesOptions() {
        Cut b = new Cut();
        assertEquals(b.environment("t", Map.of()), b.environment("t", Map.of(), PyDict.empty()));
        var e = assertThrows(
                IllegalArgumentException.class, () -> b.environment("t", Map.of(), PyDict.of("max_steps", 3)));
        assertEquals("benchmark cut has no options (given: max_steps)", e.getMessage());
    }

    @Test
    void evidenceListsUsageByRoleInOneOrder() {
        var usage = new java.util.HashMap<String, brokkr.conversation.Usage>();
        for (String role : List.of("user", "judge", "agent", "unattributed"))
            usage.put(role, new brokkr.conversation.Usage(1, 2));
        Evidence e = new Evidence(null, null, null, null, null, List.of(), usage, null, null);
        assertEquals(
                List.of("agent", "judge", "unattributed", "user"),
                List.copyOf(e.usage().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> e.usage().clear());
    }
}
