package brokkr.cli;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.command.Command;
import brokkr.command.ModelSource;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.domains.synthetic.cli.LoopCommand;
import brokkr.domains.synthetic.cli.ParallelCommand;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.domains.synthetic.parallel.Batcher;
import brokkr.experiment.Registry;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The synthetic benchmark commands against a model on a loopback HTTP server speaking the OpenAI
 * Chat Completions wire format: the real command, agent loop, tools, OpenAI-compatible provider and
 * HTTP, with the model's policy played by the scripted candidates (which read only what came over
 * the wire).
 */
class SyntheticEndToEndTest {
    record Run(int code, String out, String err) {}

    static Run run(Command command, String... argv) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = command.run(
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static LoopCommand loop(ScriptedModelServer s) {
        return new LoopCommand(Registry.process(), ModelSource.fromEnvironment(s.openAiEnv()));
    }

    static ParallelCommand parallel(ScriptedModelServer s) {
        return new ParallelCommand(Registry.process(), ModelSource.fromEnvironment(s.openAiEnv()));
    }

    @Test
    void loopTenThroughTheOpenAiProvider() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(LoopFollower.ideal())) {
            Run r = run(loop(server), "10", "--model", "loopback-model", "--provider", "openai");
            assertEquals(
                    new Run(
                            0,
                            "PASS depth=10 toolCalls=10/10\n",
                            "steps=11 modelCalls=11 inputTokens=0 outputTokens=0 stop=answered\n"),
                    r);
            assertEquals(11, server.requestCount());
            PyDict first = server.requests().getFirst().json();
            assertEquals("loopback-model", first.get("model").asStr());
            assertEquals(
                    "follow_pointer",
                    first.get("tools")
                            .asList()
                            .get(0)
                            .asDict()
                            .get("function")
                            .asDict()
                            .get("name")
                            .asStr());
            // The last request carries the whole walk: system, user, then 10 × (assistant call, tool result).
            PyList last = server.requests().getLast().json().get("messages").asList();
            assertEquals(22, last.size());
            assertEquals("tool", last.get(21).asDict().get("role").asStr());
            assertTrue(last.get(21).asDict().get("content").asStr().endsWith(" next=END"));
        }
    }

    @Test
    void loopFailuresThroughTheWire() throws Exception {
        String s = PointerChain.of(10).secret();
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(LoopFollower.earlyStop(5))) {
            assertEquals(
                    "FAIL depth=10 toolCalls=5/10 expected=" + s + " actual=" + s.substring(0, 20) + "\n",
                    run(loop(server), "10", "--model", "m").out());
        }
        // A model whose first call has arguments that are not JSON: an error tool message, counted, no crash.
        Candidate ideal = LoopFollower.ideal();
        Candidate sloppy = (history, tools) -> {
            if (history.stream().noneMatch(m -> m instanceof Message.Assistant)) {
                return Turn.of(new Message.Assistant(
                        null, List.of(new ToolCall("call_bad", "follow_pointer", PyDict.empty(), "{\"key\": ", null))));
            }
            List<Message> rest = new ArrayList<>(history);
            rest.subList(2, 4).clear(); // forget the botched first exchange, then walk as the ideal does
            return ideal.next(rest, tools);
        };
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(sloppy)) {
            Run r = run(loop(server), "10", "--model", "m");
            assertEquals("FAIL depth=10 toolCalls=11/10 expected=" + s + " actual=" + s + "\n", r.out());
            PyDict toolReply = server.requests()
                    .get(1)
                    .json()
                    .get("messages")
                    .asList()
                    .get(3)
                    .asDict();
            assertEquals("call_bad", toolReply.get("tool_call_id").asStr());
            assertTrue(
                    toolReply.get("content").asStr().startsWith("Error: malformed tool call arguments"),
                    toolReply.toString());
        }
    }

    @Test
    void parallelEightWithAModelThatBatches() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(Batcher.batch())) {
            Run r = run(parallel(server), "8", "--model", "m");
            assertEquals("pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes\n", r.out());
            assertEquals(0, r.code());
            assertEquals(2, server.requestCount());
            // All eight lookups came in one response and went back as eight tool messages in one request.
            PyList messages = server.requests().get(1).json().get("messages").asList();
            assertEquals(8, messages.get(2).asDict().get("tool_calls").asList().size());
            assertEquals(2 + 1 + 8, messages.size());
        }
    }

    @Test
    void parallelEightWithAModelThatSerializes() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.ofCandidate(Batcher.serial())) {
            Run r = run(parallel(server), "8", "--model", "m");
            assertEquals("pd tasks=8 calls=8 turns=8 maxConcurrency=1 efficiency=1.0 correct=yes\n", r.out());
            assertEquals(9, server.requestCount());
        }
    }

    @Test
    void anUnreachableModelIsAnInfrastructureFailure() throws Exception {
        String url;
        try (ScriptedModelServer gone = ScriptedModelServer.ofCandidate(Batcher.batch())) {
            url = gone.baseUrl();
        }
        // The server is closed: every attempt is refused. One attempt, so the test does not wait on backoff.
        ModelSource source = (provider, model) -> Providers.fromEnvironment(
                Map.of("OPENAI_BASE_URL", url),
                provider,
                model,
                ProviderOptions.defaults(model).withMaxAttempts(1));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new ParallelCommand(Registry.process(), source)
                .run(
                        List.of("--model", "m"),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(
                err.toString(StandardCharsets.UTF_8)
                        .startsWith("brokkr parallel: infrastructure failure, run not scored: "),
                err.toString(StandardCharsets.UTF_8));
    }
}
