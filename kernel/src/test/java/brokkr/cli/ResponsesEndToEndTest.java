package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import brokkr.provider.DecodedRequest;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brokkr experiment run} with a candidate on {@code provider: openai-responses}, against a loopback server
 * speaking the Responses API (streamed): the pointer-chasing loop's six hops played by the ideal follower, every
 * answer carrying a reasoning item with encrypted content, and the server refusing any request that does not
 * carry every earlier one back. The stored attempt has the reward, the raw streams, the reasoning in the
 * transcript and the reasoning tokens in the usage; {@code reasoning_effort} is part of the candidate (a new value
 * makes new cells), a timeout is not (the run resumes, nothing is sent).
 */
class ResponsesEndToEndTest {
    @TempDir
    Path tmp;

    /** The README's example, as pasted; the test varies its options. */
    static String spec(String effort, String more) throws Exception {
        String readme = ReadmeExamplesTest.block("# responses.yaml");
        String options = "options: {reasoning_effort: high, stream: true}";
        assertTrue(readme.contains(options), readme);
        return readme.replace(options, "options: {reasoning_effort: " + effort + ", stream: true" + more + "}");
    }

    static PyDict reasoning(int step) {
        return PyDict.of(
                "type",
                "reasoning",
                "id",
                "rs_" + step,
                "summary",
                PyList.empty(),
                "encrypted_content",
                "gAAAAB-opaque-" + step);
    }

    static int run(Registry registry, Path file, Path dir, StringBuilder err) throws Exception {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = new ExperimentCommand(registry, new ExperimentInterop(registry, BenchmarkFamily.load()))
                .run(
                        List.of("run", file.toString(), "--dir", dir.toString(), "--no-progress"),
                        new PrintStream(o, true, StandardCharsets.UTF_8),
                        new PrintStream(e, true, StandardCharsets.UTF_8));
        err.append(e.toString(StandardCharsets.UTF_8)).append(o.toString(StandardCharsets.UTF_8));
        return code;
    }

    @Test
    void anExperimentRunsOnTheResponsesWireCarryingReasoningBetweenSteps() throws Exception {
        List<String> efforts = new ArrayList<>();
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            if (!req.path().equals("/v1/responses")) return Reply.json(404, "{}");
            DecodedRequest d = req.responses();
            efforts.add(req.json().get("reasoning").asDict().get("effort").asStr());
            List<Message.Assistant> earlier = d.history().stream()
                    .filter(Message.Assistant.class::isInstance)
                    .map(Message.Assistant.class::cast)
                    .toList();
            for (int i = 0; i < earlier.size(); i++)
                if (!earlier.get(i).reasoning().equals(List.of(reasoning(i))))
                    return Reply.json(
                            400,
                            PyJson.dumps(PyDict.of(
                                    "error",
                                    PyDict.of("message", "step " + i + "'s reasoning item was not sent back"))));
            Turn t = LoopFollower.ideal().next(d.history(), d.tools());
            Message.Assistant m = new Message.Assistant(
                    t.message().content(),
                    t.message().toolCalls(),
                    new Usage(100, 40, 60, 0, 30),
                    List.of(reasoning(earlier.size())));
            return ScriptedModelServer.responseReply(m, d.model(), "resp_" + req.index(), req);
        })) {
            Registry registry = Registry.process()
                    .with(List.of(), List.of(new ProviderModels("openai-responses", server.openAiEnv()) {}));
            Path file = tmp.resolve("responses.yaml"), dir = tmp.resolve("exp");
            Files.writeString(file, spec("high", ""));
            StringBuilder err = new StringBuilder();
            assertEquals(0, run(registry, file, dir, err), err.toString());
            assertEquals(7, server.requestCount(), "six hops and the answer");
            assertEquals(List.of("high"), efforts.stream().distinct().toList());

            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                Attempt a = q.attempts(true).getFirst();
                assertEquals(1.0, a.reward(), a.toString());
                Evidence e = a.evidence();
                assertEquals(new Usage(700, 280, 420, 0, 210), e.usage().get(Evidence.AGENT));
                for (var c : e.modelCalls()) {
                    assertEquals("openai-responses", c.call().provider());
                    assertTrue(c.call().responseBody().startsWith("event: response.created"), "the raw stream");
                }
                assertTrue(e.modelCalls()
                        .getLast()
                        .call()
                        .requestBody()
                        .contains("\"encrypted_content\": \"gAAAAB-opaque-5\""));
                List<Value> assistants = e.transcript().asList().stream()
                        .filter(v -> v.asDict().get("role").asStr().equals("assistant"))
                        .toList();
                assertEquals(7, assistants.size());
                for (int i = 0; i < 7; i++)
                    assertEquals(
                            PyList.of(reasoning(i)), assistants.get(i).asDict().get("reasoning"), "step " + i);
            }

            // The effort is part of the candidate: a new value, new cells.
            String before;
            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                before = q.attempts(true).getFirst().agentId();
            }
            Files.writeString(file, spec("low", ""));
            assertEquals(0, run(registry, file, dir, err), err.toString());
            assertEquals(14, server.requestCount());
            assertEquals(List.of("high", "low"), efforts.stream().distinct().toList());
            try (ExperimentQuery q = ExperimentQuery.open(dir)) {
                assertNotEquals(before, q.attempts(true).getFirst().agentId());
                assertEquals(2, q.attempts(false).size());
            }
            // A timeout is not: the run resumes into the cell just made and sends nothing.
            Files.writeString(file, spec("low", ", timeout_seconds: 30"));
            assertEquals(0, run(registry, file, dir, err), err.toString());
            assertEquals(14, server.requestCount());
        }
    }

    /**
     * The model-call cache over streamed responses: a re-run from a shared cache file, with the server gone, is
     * served whole from the recorded raw streams, decoded as when they arrived (reward, reasoning, usage).
     */
    @Test
    void aCachedStreamReplaysTheEpisodeWithoutAServer() throws Exception {
        Path file = tmp.resolve("cached.yaml"), cacheFile = tmp.resolve("calls.db");
        Files.writeString(
                file,
                spec("medium", "").replace("stream: true}}", "stream: true}, cache: true}") + "cache_file: " + cacheFile
                        + "\n");
        StringBuilder err = new StringBuilder();
        Usage first;
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.responses();
            int step = (int) d.history().stream()
                    .filter(Message.Assistant.class::isInstance)
                    .count();
            Turn t = LoopFollower.ideal().next(d.history(), d.tools());
            return ScriptedModelServer.responseReply(
                    new Message.Assistant(
                            t.message().content(),
                            t.message().toolCalls(),
                            new Usage(10, 8, 0, 0, 5),
                            List.of(reasoning(step))),
                    d.model(),
                    "resp_" + req.index(),
                    req);
        })) {
            Registry registry = Registry.process()
                    .with(List.of(), List.of(new ProviderModels("openai-responses", server.openAiEnv()) {}));
            assertEquals(0, run(registry, file, tmp.resolve("first"), err), err.toString());
            assertEquals(7, server.requestCount());
            try (ExperimentQuery q = ExperimentQuery.open(tmp.resolve("first"))) {
                first = q.attempts(true).getFirst().evidence().usage().get(Evidence.AGENT);
            }
        }
        Registry gone = Registry.process()
                .with(
                        List.of(),
                        List.of(
                                new ProviderModels(
                                        "openai-responses",
                                        java.util.Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")) {}));
        assertEquals(0, run(gone, file, tmp.resolve("again"), err), err.toString());
        try (ExperimentQuery q = ExperimentQuery.open(tmp.resolve("again"))) {
            Attempt a = q.attempts(true).getFirst();
            assertEquals(1.0, a.reward());
            assertTrue(a.evidence().modelCalls().stream().allMatch(c -> c.call().cacheHit()));
            assertEquals(first, a.evidence().usage().get(Evidence.AGENT));
            assertEquals(new Usage(70, 56, 0, 0, 35), first);
            assertEquals(
                    PyList.of(reasoning(6)),
                    a.evidence().transcript().asList().stream()
                            .filter(v -> v.asDict().get("role").asStr().equals("assistant"))
                            .reduce((x, y) -> y)
                            .orElseThrow()
                            .asDict()
                            .get("reasoning"));
        }
    }

    /** {@code ./brokkr help} lists the model providers, the Responses wire among them. */
    @Test
    void helpListsTheResponsesWire() {
        CliErrorsTest.Run r = CliErrorsTest.main("help");
        assertEquals(0, r.code(), r.err());
        String providers = r.out().substring(r.out().indexOf("model providers"));
        assertTrue(providers.contains("\n  openai-responses   OpenAI Responses API"), providers);
        assertTrue(providers.contains("\n  openai             OpenAI Chat Completions"), providers);
        assertTrue(providers.contains("(also openai-compatible, vllm, llamacpp, ollama)"), providers);
    }
}
