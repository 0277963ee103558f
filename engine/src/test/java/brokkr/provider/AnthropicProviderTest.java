package brokkr.provider;

import static brokkr.provider.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.PyDict;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnthropicProviderTest {

    @Test
    void toolUseWithTextIsParsedAndHeadersAndPathAreAnthropics() throws Exception {
        try (var server = ScriptedModelServer.sequence(Reply.json(200, ANTHROPIC_ONE_CALL))) {
            Turn t = anthropic(server, fast("claude-sonnet-4-5"), new FakeEffects())
                    .next(ASK, List.of(WEATHER));
            Message.Assistant m = t.message();
            assertEquals("I'll check the current weather in Boston for you.", m.content());
            ToolCall c = m.toolCalls().getFirst();
            assertEquals("toolu_01A09q90qw90lq917835lq9", c.id());
            assertEquals(PyDict.of("location", "Boston, MA", "unit", "fahrenheit"), c.arguments());
            assertFalse(c.isMalformed());
            assertEquals(new Usage(478, 71), m.usage());

            var received = server.requests().getFirst();
            assertEquals("/v1/messages", received.path());
            assertEquals(KEY, received.credential());
            assertEquals("2023-06-01", received.headers().get("anthropic-version"));
            assertEquals("[REDACTED]", received.headers().get("x-api-key"));
            assertEquals(t.calls().getFirst().requestBody(), received.body());
            assertEquals("anthropic", t.calls().getFirst().provider());
            assertEquals("""
                    {"model": "claude-sonnet-4-5", "max_tokens": 4096, "system": "You are a weather assistant.", \
                    "messages": [{"role": "user", "content": "What's the weather like in Boston and Paris today?"}], \
                    "tools": [{"name": "get_weather", "description": "Get the current weather in a given location", \
                    "input_schema": {"type": "object", "properties": {"location": {"type": "string", \
                    "description": "The city and state, e.g. San Francisco, CA"}, "unit": {"type": "string", \
                    "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}]}""", received.body());
        }
    }

    @Test
    void parallelToolUseBlocksAndCacheTokens() throws Exception {
        try (var server = ScriptedModelServer.sequence(Reply.json(200, ANTHROPIC_TWO_CALLS))) {
            Turn t = anthropic(server, fast("claude-sonnet-4-5"), new FakeEffects())
                    .next(ASK, List.of(WEATHER));
            assertNull(t.message().content());
            assertEquals(
                    List.of("toolu_01", "toolu_02"),
                    t.message().toolCalls().stream().map(ToolCall::id).toList());
            assertEquals(
                    PyDict.of("location", "Paris, France", "unit", "celsius"),
                    t.message().toolCalls().get(1).arguments());
            assertEquals(
                    new Usage(530, 90, 20, 10),
                    t.message().usage(),
                    "input + cache read + cache creation, the cache apart");
        }
    }

    @Test
    void textOnlyAnswer() throws Exception {
        try (var server = ScriptedModelServer.sequence(Reply.json(200, ANTHROPIC_TEXT))) {
            Turn t = anthropic(server, fast("claude-sonnet-4-5"), new FakeEffects())
                    .next(ASK, List.of());
            assertEquals("Hi! My name is Claude.", t.message().content());
            assertFalse(t.message().hasToolCalls());
            assertEquals(new Usage(2095, 503), t.message().usage());
        }
    }

    @Test
    void disablingParallelCallsSendsToolChoiceAndToolResultsAreMerged() {
        List<Message> history = List.of(
                new Message.System("sys one"),
                new Message.System("sys two"),
                new Message.User("weather?"),
                new Message.Assistant(
                        "Let me look.",
                        List.of(
                                new ToolCall("toolu_1", "get_weather", PyDict.of("location", "Boston")),
                                new ToolCall("toolu_2", "get_weather", PyDict.of("location", "Paris")))),
                new Message.Tool("toolu_1", "get_weather", "20C", false),
                new Message.Tool("toolu_2", "get_weather", "Error: no station", true),
                new Message.Assistant("Boston is 20C."),
                new Message.Assistant(null),
                new Message.User("thanks"));
        String body = AnthropicMessages.INSTANCE.encodeRequest(
                history,
                List.of(WEATHER),
                fast("claude").withParallelToolCalls(false).withMaxTokens(1024).withTemperature(0.0));
        assertEquals("""
                {"model": "claude", "max_tokens": 1024, "system": "sys one\\n\\nsys two", "messages": [\
                {"role": "user", "content": "weather?"}, \
                {"role": "assistant", "content": [{"type": "text", "text": "Let me look."}, \
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"location": "Boston"}}, \
                {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"location": "Paris"}}]}, \
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "20C"}, \
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "Error: no station", "is_error": true}]}, \
                {"role": "assistant", "content": "Boston is 20C."}, {"role": "user", "content": "thanks"}], \
                "tools": [""", body.substring(0, body.indexOf("\"tools\": [") + 10));
        assertTrue(
                body.endsWith(
                        "\"tool_choice\": {\"type\": \"auto\", \"disable_parallel_tool_use\": true}, \"temperature\": 0.0}"),
                body);

        String allowed = AnthropicMessages.INSTANCE.encodeRequest(
                history, List.of(WEATHER), fast("claude").withParallelToolCalls(true));
        assertFalse(allowed.contains("tool_choice"), "parallel use is Anthropic's default");
        String noTools = AnthropicMessages.INSTANCE.encodeRequest(
                history, List.of(), fast("claude").withParallelToolCalls(false));
        assertFalse(noTools.contains("tool_choice"));
    }

    @Test
    void aConversationOpeningWithTheAgentGetsAPlaceholderUserTurnAndRolesAlternate() {
        List<Message> history = List.of(
                new Message.System("sys"),
                new Message.Assistant("Hi! How can I help you today?"),
                new Message.User("cancel my order"),
                new Message.User("it is #1"),
                new Message.Assistant(
                        null, List.of(new ToolCall("toolu_1", "cancel_order", PyDict.of("order_id", "#1")))),
                new Message.Tool("toolu_1", "cancel_order", "ok", false),
                new Message.User("and tell me when it is done"));
        String body = AnthropicMessages.INSTANCE.encodeRequest(history, List.of(), fast("claude"));
        assertEquals("""
                {"model": "claude", "max_tokens": 4096, "system": "sys", "messages": [{"role": "user", "content": "."}, \
                {"role": "assistant", "content": "Hi! How can I help you today?"}, \
                {"role": "user", "content": [{"type": "text", "text": "cancel my order"}, {"type": "text", "text": "it is #1"}]}, \
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "cancel_order", "input": {"order_id": "#1"}}]}, \
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}, \
                {"type": "text", "text": "and tell me when it is done"}]}]}""", body);
    }

    @Test
    void decodingARequestInvertsEncodingIt() {
        List<Message> history = List.of(
                new Message.System("sys"),
                new Message.User("q"),
                new Message.Assistant(
                        "a",
                        List.of(
                                new ToolCall("toolu_1", "get_weather", PyDict.of("location", "Oslo")),
                                new ToolCall("toolu_2", "get_weather", PyDict.of("location", "Bergen")))),
                new Message.Tool("toolu_1", "get_weather", "r1", false),
                new Message.Tool("toolu_2", "get_weather", "r2", true),
                new Message.Assistant("done"),
                new Message.User("thanks"));
        ProviderOptions o = fast("claude").withParallelToolCalls(false);
        String body = AnthropicMessages.INSTANCE.encodeRequest(history, List.of(WEATHER), o);
        DecodedRequest decoded = AnthropicMessages.decodeRequest(body);
        assertEquals(
                history,
                decoded.history().stream()
                        .map(m -> m instanceof Message.Assistant a
                                ? new Message.Assistant(
                                        a.content(),
                                        a.toolCalls().stream()
                                                .map(c -> new ToolCall(c.id(), c.name(), c.arguments()))
                                                .toList())
                                : m)
                        .toList(),
                "equal up to the argument text the server saw");
        assertEquals(List.of(WEATHER), decoded.tools());
        assertEquals(body, AnthropicMessages.INSTANCE.encodeRequest(decoded.history(), decoded.tools(), o));
    }

    @Test
    void toolUseInputThatIsNotAnObjectIsAnAgentError() throws Exception {
        String body = """
                {"id": "msg_x", "type": "message", "role": "assistant", "model": "claude",
                 "content": [{"type": "tool_use", "id": "toolu_x", "name": "get_weather", "input": "Boston"},
                             {"type": "tool_use", "id": "toolu_y", "input": {}}],
                 "stop_reason": "tool_use", "usage": {"input_tokens": 1, "output_tokens": 2}}
                """;
        try (var server = ScriptedModelServer.sequence(Reply.json(200, body))) {
            Turn t = anthropic(server, fast("claude"), new FakeEffects()).next(ASK, List.of(WEATHER));
            assertEquals(
                    "arguments are a JSON string, not an object",
                    t.message().toolCalls().get(0).malformed());
            assertEquals("\"Boston\"", t.message().toolCalls().get(0).rawArguments());
            assertEquals(
                    "tool call has no function name",
                    t.message().toolCalls().get(1).malformed());
            assertEquals(1, t.calls().size());
        }
    }

    @Test
    void overloadedIsRetriedAndAnErrorBodyIsNotAMessage() throws Exception {
        FakeEffects fx = new FakeEffects();
        try (var server = ScriptedModelServer.sequence(
                Reply.json(
                        529,
                        "{\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}"),
                Reply.json(
                        200,
                        "{\"type\": \"error\", \"error\": {\"type\": \"api_error\", \"message\": \"Internal server error\"}}"),
                Reply.json(200, ANTHROPIC_TEXT))) {
            Turn t = anthropic(server, fast("claude"), fx).next(ASK, List.of());
            assertEquals(
                    List.of(529, 200, 200),
                    t.calls().stream().map(ModelCall::status).toList());
            assertTrue(
                    t.calls().get(0).error().startsWith("HTTP 529: {\"type\": \"error\""),
                    t.calls().get(0).error());
            assertTrue(t.calls().get(1).error().startsWith("malformed response: error object instead of content"));
            assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100)), fx.sleeps);
        }
    }

    @Test
    void authenticationErrorFailsAtOnce() {
        try (var server = ScriptedModelServer.sequence(
                Reply.json(
                        401,
                        "{\"type\": \"error\", \"error\": {\"type\": \"authentication_error\", \"message\": \"invalid x-api-key\"}}"))) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> anthropic(server, fast("claude"), new FakeEffects()).next(ASK, List.of()));
            assertEquals(1, f.attempts().size());
            assertTrue(f.getMessage().contains("HTTP 401 (not retried)"), f.getMessage());
        }
    }

    @Test
    void baseUrlWithOrWithoutV1() {
        assertEquals(
                "https://api.anthropic.com/v1/messages",
                AnthropicMessages.INSTANCE
                        .endpoint("https://api.anthropic.com/")
                        .toString());
        assertEquals(
                "http://proxy:8080/v1/messages",
                AnthropicMessages.INSTANCE.endpoint("http://proxy:8080/v1").toString());
        assertEquals(
                "http://localhost:8000/v1/chat/completions",
                OpenAiChat.INSTANCE.endpoint("http://localhost:8000/v1/").toString());
    }
}
