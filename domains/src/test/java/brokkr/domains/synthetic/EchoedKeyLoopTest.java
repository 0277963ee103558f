package brokkr.domains.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.Transcript;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.Turn;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.domains.synthetic.loop.PointerChasing;
import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.eval.Transcripts;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.provider.Secret;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyStr;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model that repeats the {@code Authorization} header it was sent, in every message and in its final
 * answer, literally, JSON-escaped and URL-encoded: neither the loop's printed result, its transcript,
 * nor the experiment store (evidence, answers, request and response bodies) holds the key.
 */
class EchoedKeyLoopTest {
    @TempDir
    Path tmp;

    static final String KEY = "sk-proj/Ab9+cD/eF==\"q-7f3a";

    /** The ideal follower over the wire, saying the credential it received in every message. */
    static ScriptedModelServer echoingServer() {
        LoopFollower ideal = LoopFollower.ideal();
        return ScriptedModelServer.start(r -> {
            DecodedRequest req = r.chat();
            Turn t = ideal.next(req.history(), req.tools());
            String heard = r.credential();
            String echo = " [" + heard + " | " + PyJson.dumps(new PyStr(heard)).replace("/", "\\/") + " | "
                    + URLEncoder.encode(heard, StandardCharsets.UTF_8) + "]";
            Message.Assistant m = t.message();
            Message.Assistant said =
                    new Message.Assistant((m.content() == null ? "" : m.content()) + echo, m.toolCalls(), m.usage());
            return Reply.json(OpenAiChat.encodeResponse(said, req.model(), "chatcmpl-" + r.index()));
        });
    }

    static void assertNoKey(String s, String where) {
        if (s == null) return;
        assertSame(s, Secret.of(KEY).redact(s), "the key (in some encoding) is in " + where + ": " + s);
        assertFalse(s.contains("Ab9+cD"), "a fragment of the key is in " + where + ": " + s);
    }

    @Test
    void theLoopsPrintedResultAndTranscriptHoldNoKey() throws Exception {
        try (ScriptedModelServer server = echoingServer()) {
            var env = Map.of("OPENAI_BASE_URL", server.baseUrl(), "OPENAI_API_KEY", KEY);
            PointerChain chain = PointerChain.of(5);
            Transcript t = PointerChasing.play(
                    chain, Providers.fromEnvironment(env, "openai", "m", ProviderOptions.defaults("m")));
            assertEquals("Bearer " + KEY, server.requests().getFirst().credential(), "the key was sent");
            String line = PointerChasing.score(chain, t).line();
            assertTrue(line.startsWith("FAIL depth=5 toolCalls=5/5"), line);
            assertTrue(line.contains(Secret.REDACTED), "the echo is in the answer, redacted: " + line);
            assertNoKey(line, "the printed result");
            assertNoKey(t.finalAnswer(), "the final answer");
            assertNoKey(PyJson.dumps(Transcripts.toValue(t.messages())), "the transcript");
            for (ModelCall c : t.modelCalls()) {
                assertNoKey(c.requestBody(), "a request body");
                assertNoKey(c.responseBody(), "a response body");
            }
        }
    }

    @Test
    void theExperimentStoreHoldsNoKey() throws Exception {
        try (ScriptedModelServer server = echoingServer()) {
            ProviderModels openai =
                    new ProviderModels("openai", Map.of("OPENAI_BASE_URL", server.baseUrl(), "OPENAI_API_KEY", KEY)) {};
            Registry registry = Registry.load().with(List.of(), List.of(openai));
            var candidate = new ExperimentSpec.CandidateSpec("model", new ModelRef("openai", "echo"), "tools", null);
            var spec = new ExperimentSpec(
                    "echo",
                    List.of(new ExperimentSpec.DomainSpec("loop", "smoke", null)),
                    List.of(candidate),
                    1,
                    2,
                    Map.of(),
                    Map.of(),
                    0,
                    Duration.ofSeconds(60),
                    false);
            Path dir = tmp.resolve("echo");
            var r = Experiments.run(spec, dir, registry);
            assertEquals(2, r.completed(), r.summary());
            try (ExperimentQuery store = ExperimentQuery.open(dir)) {
                for (Attempt a : store.attempts(true)) {
                    String evidence = PyJson.dumps(a.evidence().toValue());
                    assertTrue(evidence.contains(Secret.REDACTED), "the echo was recorded, redacted");
                    assertNoKey(evidence, "evidence_json");
                    assertNoKey(a.error(), "an attempt's error");
                }
            }
            List<Path> files;
            try (Stream<Path> s = Files.walk(dir)) {
                files = new ArrayList<>(s.filter(Files::isRegularFile).toList());
            }
            for (Path f : files) assertNoKey(new String(Files.readAllBytes(f), StandardCharsets.UTF_8), f.toString());
        }
    }
}
