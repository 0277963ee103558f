package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.ToolCall;
import brokkr.provider.ModelProvider;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The reference and tools candidates end to end over the wire, against a loopback model server that
 * answers like the gold candidate for the task under test.
 */
class BfclAgentTest {
    static final List<String> TASKS = List.of(
            "simple_python_1",
            "parallel_0",
            "parallel_multiple_0",
            "irrelevance_0",
            "live_relevance_0-0-0",
            "live_multiple_0-0-0");

    record Setup(ScriptedModelServer server, AtomicReference<BfclTask> current) {}

    /** A candidate's attempt at a task and its checker verdict (function-calling names, as the benchmark grades). */
    record Graded(BfclAgent.Attempt attempt, BfclGrader.Verdict verdict) {
        static Graded of(BfclTask t, BfclAgent agent) {
            BfclAgent.Attempt a = agent.attempt(t);
            return new Graded(a, a.failure() != null ? null : BfclHarness.grade(t, a.answer(), true));
        }

        boolean passed() {
            return verdict != null && verdict.valid();
        }
    }

    static Setup server() {
        AtomicReference<BfclTask> current = new AtomicReference<>();
        Candidate gold = (history, tools) -> new BfclAgent.GoldCandidate(current.get()).next(history, tools);
        return new Setup(ScriptedModelServer.ofCandidate(gold), current);
    }

    @Test
    void referenceMakesOneCallWithTheCompiledToolsAndPasses() {
        Setup s = server();
        try (ScriptedModelServer server = s.server()) {
            ModelProvider model = Providers.fromEnvironment(
                    server.openAiEnv(),
                    "openai",
                    "scripted",
                    ProviderOptions.defaults("scripted").withParallelToolCalls(true));
            BfclAgent agent = new BfclAgent.Reference(model, ToolCompiler.Style.OPENAI_COMPLETIONS, true);
            int requests = 0;
            for (String id : TASKS) {
                BfclTask t = Shared.data().byId().get(id);
                s.current().set(t);
                Graded r = Graded.of(t, agent);
                assertTrue(r.passed(), id + " " + r.verdict());
                assertEquals(++requests, server.requestCount(), "one model call per task");
                PyDict body = server.requests().getLast().json();
                assertEquals(PyBool.TRUE, body.get("parallel_tool_calls"));
                Value expected = ToolCompiler.compile(
                        ToolCompiler.modelFunctions(t.functions()), ToolCompiler.Style.OPENAI_COMPLETIONS);
                assertEquals(expected, body.get("tools"), id + ": the request carries upstream's compiled tools");
                assertEquals(1, r.attempt().calls().size());
            }
        }
    }

    @Test
    void toolsTakesOneAgentStepWithRecordersAndPasses() {
        Setup s = server();
        try (ScriptedModelServer server = s.server()) {
            ModelProvider model = Providers.fromEnvironment(
                    server.openAiEnv(),
                    "openai",
                    "scripted",
                    ProviderOptions.defaults("scripted").withParallelToolCalls(false));
            BfclAgent agent = new BfclAgent.Tools(model, ToolCompiler.Style.OPENAI_COMPLETIONS, false);
            int requests = 0;
            for (String id : TASKS) {
                BfclTask t = Shared.data().byId().get(id);
                s.current().set(t);
                Graded r = Graded.of(t, agent);
                assertTrue(r.passed(), id + " " + r.verdict());
                assertEquals(++requests, server.requestCount(), "the step is never followed by a second one");
                assertEquals(PyBool.FALSE, server.requests().getLast().json().get("parallel_tool_calls"));
                List<ToolCall> sent = new BfclAgent.GoldCandidate(t)
                        .next(List.of(), List.of())
                        .message()
                        .toolCalls();
                assertEquals(
                        sent.stream().map(ToolCall::name).toList(),
                        r.attempt().recorded().stream().map(ToolCall::name).toList());
                assertEquals(
                        sent.stream().map(ToolCall::arguments).toList(),
                        r.attempt().recorded().stream().map(ToolCall::arguments).toList());
            }
        }
    }

    @Test
    void anthropicWireCarriesTheAnthropicStyle() {
        Setup s = server();
        try (ScriptedModelServer server = s.server()) {
            ModelProvider model = Providers.fromEnvironment(
                    server.anthropicEnv("test-key"), "anthropic", "scripted", ProviderOptions.defaults("scripted"));
            BfclAgent agent = new BfclAgent.Reference(model, ToolCompiler.Style.ANTHROPIC, null);
            BfclTask t = Shared.data().byId().get("parallel_multiple_0");
            s.current().set(t);
            assertTrue(Graded.of(t, agent).passed());
            PyList tools = (PyList) server.requests().getLast().json().get("tools");
            assertEquals(
                    ToolCompiler.compile(ToolCompiler.modelFunctions(t.functions()), ToolCompiler.Style.ANTHROPIC),
                    tools);
        }
    }

    @Test
    void aWrongModelAnswerFails() {
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate((h, tools) -> brokkr.conversation.Turn.of(
                new brokkr.conversation.Message.Assistant("I would call math.factorial(5).")))) {
            ModelProvider model = Providers.fromEnvironment(
                    server.openAiEnv(), "openai", "scripted", ProviderOptions.defaults("scripted"));
            BfclTask t = Shared.data().byId().get("simple_python_1");
            Graded r = Graded.of(t, new BfclAgent.Reference(model, ToolCompiler.Style.OPENAI_COMPLETIONS, null));
            assertFalse(r.passed());
            assertEquals("ast_decoder:decoder_failed", r.verdict().errorType());
        }
    }
}
