package brokkr.provider;

import static brokkr.provider.ScriptedCandidate.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The loopback server as another module would use it: a scripted model behind a real HTTP provider. */
class ScriptedModelServerTest {

    /** A minimal agent loop: every tool call answered with a canned result, until a text-only turn. */
    private static List<Message> run(Candidate c, List<ToolSpec> tools) throws InfrastructureFailure {
        List<Message> history =
                new ArrayList<>(List.of(new Message.System("sys"), new Message.User("weather in Oslo and Bergen?")));
        for (int i = 0; i < 10; i++) {
            Message.Assistant m = c.next(history, tools).message();
            history.add(m);
            if (!m.hasToolCalls()) break;
            for (ToolCall call : m.toolCalls()) {
                history.add(new Message.Tool(
                        call.id(),
                        call.name(),
                        call.isMalformed() ? "Error: " + call.malformed() : "{\"temp\": 3}",
                        call.isMalformed()));
            }
        }
        return history;
    }

    private static final ScriptedCandidate.Policy GOLD = replay(
            List.of(
                    calls(call("get_weather", "location", "Oslo"), call("get_weather", "location", "Bergen")),
                    calls(rawCall("get_weather", "[\"Trondheim\"]")),
                    sayAndCall("One more.", call("get_weather", PyDict.of("location", "Tromsø", "unit", "celsius")))),
            say("Oslo 3, Bergen 3."));

    private static void assertSameConversation(List<Message> direct, List<Message> overHttp) {
        assertEquals(
                direct.stream().map(ScriptedModelServerTest::plain).toList(),
                overHttp.stream().map(ScriptedModelServerTest::plain).toList());
        for (int i = 0; i < direct.size(); i++) {
            if (direct.get(i) instanceof Message.Assistant d) {
                assertEquals(
                        d.toolCalls().stream().map(ToolCall::malformed).toList(),
                        ((Message.Assistant) overHttp.get(i))
                                .toolCalls().stream().map(ToolCall::malformed).toList());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm", "anthropic"})
    void aScriptedCandidateBehindTheServerBehavesLikeTheCandidateItself(String provider) throws Exception {
        try (var server = ScriptedModelServer.ofCandidate(ScriptedCandidate.of(GOLD))) {
            Fixtures.FakeEffects fx = new Fixtures.FakeEffects();
            var env = provider.equals("anthropic") ? server.anthropicEnv("k-test") : server.openAiEnv();
            ModelProvider viaHttp = Providers.fromEnvironment(
                    env,
                    provider,
                    "Qwen/Qwen3-8B",
                    Fixtures.fast("ignored").withParallelToolCalls(true),
                    Effects.httpClient(java.time.Duration.ofSeconds(5)),
                    fx.effects);
            List<Message> overHttp = run(viaHttp, List.of(Fixtures.WEATHER));
            List<Message> direct = run(ScriptedCandidate.of(GOLD), List.of(Fixtures.WEATHER));
            assertEquals(10, overHttp.size());
            assertSameConversation(direct, overHttp);
            assertTrue(
                    ((Message.Assistant) overHttp.get(5)).toolCalls().getFirst().isMalformed());

            assertEquals(4, server.requestCount());
            var last = server.requests().getLast();
            DecodedRequest seen = provider.equals("anthropic") ? last.anthropic() : last.chat();
            assertEquals("Qwen/Qwen3-8B", seen.model());
            assertEquals(List.of(Fixtures.WEATHER), seen.tools());
            assertEquals(
                    overHttp.subList(0, 9).stream()
                            .map(ScriptedModelServerTest::plain)
                            .toList(),
                    seen.history().stream().map(ScriptedModelServerTest::plain).toList(),
                    "the server saw the client's history");
            if (provider.equals("anthropic")) {
                assertEquals("/v1/messages", last.path());
                assertEquals("k-test", last.credential());
                assertTrue(((Message.Tool) seen.history().get(6)).error(), "is_error survives the round trip");
            } else {
                assertEquals("/v1/chat/completions", last.path());
                assertTrue(last.body().contains("\"parallel_tool_calls\": true"));
                assertNull(last.credential(), "no OPENAI_API_KEY, no Authorization header");
            }
        }
    }

    @Test
    void concurrentEpisodesShareOneProviderAndOneServer() throws Exception {
        try (var server = ScriptedModelServer.ofCandidate(ScriptedCandidate.of(GOLD));
                var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            ModelProvider p = Fixtures.openai(server, Fixtures.fast("m"), new Fixtures.FakeEffects());
            List<Message> direct = run(ScriptedCandidate.of(GOLD), List.of(Fixtures.WEATHER));
            List<java.util.concurrent.Future<List<Message>>> runs = new ArrayList<>();
            for (int i = 0; i < 16; i++) runs.add(pool.submit(() -> run(p, List.of(Fixtures.WEATHER))));
            for (var r : runs) assertSameConversation(direct, r.get());
            assertEquals(64, server.requestCount());
        }
    }

    @Test
    void decodingARequestInvertsEncodingIt() throws Exception {
        List<Message> history = List.of(
                new Message.System("sys"),
                new Message.User("q"),
                new Message.Assistant(
                        "a", List.of(new ToolCall("c1", "get_weather", PyDict.of("location", "Oslo", "n", 1.5)))),
                new Message.Tool("c1", "get_weather", "r", false),
                new Message.Assistant(null));
        ProviderOptions o = ProviderOptions.defaults("m").withTemperature(0.7).withParallelToolCalls(false);
        String body = OpenAiChat.INSTANCE.encodeRequest(history, List.of(Fixtures.WEATHER), o);
        var decoded = OpenAiChat.decodeRequest(body);
        assertEquals("m", decoded.model());
        assertEquals(List.of(Fixtures.WEATHER), decoded.tools());
        assertEquals(
                "get_weather", ((Message.Tool) decoded.history().get(3)).name(), "named after the call it answers");
        assertEquals(body, OpenAiChat.INSTANCE.encodeRequest(decoded.history(), decoded.tools(), o));
        assertTrue(
                body.contains("{\"role\": \"assistant\", \"content\": \"\"}"),
                "an empty assistant turn is sent as empty text, not null");
    }

    @Test
    void jsonPolicyAndFaultsServeAnyClient() throws Exception {
        try (var server = ScriptedModelServer.ofJson(req -> OpenAiChat.encodeResponse(
                say("you said " + req.get("messages").asList().size() + " messages"), "m", "x"))) {
            Fixtures.FakeEffects fx = new Fixtures.FakeEffects();
            Turn t = Fixtures.openai(server, Fixtures.fast("m"), fx).next(List.of(new Message.User("a")), List.of());
            assertEquals("you said 1 messages", t.message().content());
        }
        try (var server = ScriptedModelServer.start(r -> {
            throw new IllegalStateException("policy bug");
        })) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> Fixtures.openai(server, Fixtures.fast("m").withMaxAttempts(2), new Fixtures.FakeEffects())
                            .next(List.of(), List.of()));
            assertEquals(500, f.attempts().getFirst().status());
            assertTrue(f.attempts().getFirst().responseBody().contains("policy bug"));
        }
        try (var server = ScriptedModelServer.ofCandidate((h, tools) -> {
            throw new InfrastructureFailure("scripted outage", List.of(), null);
        })) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> Fixtures.openai(server, Fixtures.fast("m").withMaxAttempts(2), new Fixtures.FakeEffects())
                            .next(List.of(), List.of()));
            assertEquals(2, server.requestCount());
            assertTrue(f.attempts().getLast().responseBody().contains("scripted outage"));
        }
    }

    /** A message without what the OpenAI wire cannot carry: usage, raw argument text, the tool error flag. */
    private static Object plain(Message m) {
        return switch (m) {
            case Message.Assistant a ->
                List.of(
                        String.valueOf(a.content()),
                        a.toolCalls().stream()
                                .map(c -> List.of(c.id(), c.name(), c.arguments()))
                                .toList());
            case Message.Tool t -> List.of(t.toolCallId(), String.valueOf(t.name()), t.content());
            default -> m;
        };
    }
}
