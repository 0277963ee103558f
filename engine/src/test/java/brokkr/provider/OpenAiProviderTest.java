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
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30) // a regression that hangs on a stalled server fails instead of blocking the build
class OpenAiProviderTest {

    /** prompt_tokens counts the cached tokens; they are kept apart (no cache writes on this wire). */
    @Test
    void cachedPromptTokensAreReadFromThePromptTokensDetails() throws Exception {
        String cached = OPENAI_ONE_CALL.replace(
                "\"total_tokens\": 99,", "\"total_tokens\": 99, \"prompt_tokens_details\": {\"cached_tokens\": 64},");
        assertEquals(
                new Usage(82, 17, 64, 0),
                OpenAiChat.INSTANCE.decodeResponse(cached).usage());
        assertEquals(
                new Usage(82, 17, 82, 0),
                OpenAiChat.INSTANCE
                        .decodeResponse(cached.replace("\"cached_tokens\": 64", "\"cached_tokens\": 500"))
                        .usage(),
                "more cached than prompt tokens (a server's slip): all of the prompt cached");
        assertEquals(
                new Usage(82, 17),
                OpenAiChat.INSTANCE.decodeResponse(OPENAI_ONE_CALL).usage());
    }

    @Test
    void singleToolCallIsParsedAndTheRequestIsRecordedExactly() throws Exception {
        FakeEffects fx = new FakeEffects();
        try (var server = ScriptedModelServer.sequence(Reply.json(200, OPENAI_ONE_CALL))) {
            Turn t = openai(server, fast("gpt-4o-mini"), fx).next(ASK, List.of(WEATHER));
            ToolCall c = t.message().toolCalls().getFirst();
            assertEquals("call_abc123", c.id());
            assertEquals("get_weather", c.name());
            assertEquals(PyDict.of("location", "Boston, MA"), c.arguments());
            assertEquals("{\n\"location\": \"Boston, MA\"\n}", c.rawArguments());
            assertFalse(c.isMalformed());
            assertNull(t.message().content());
            assertEquals(new Usage(82, 17), t.message().usage());

            assertEquals(1, t.calls().size());
            ModelCall call = t.calls().getFirst();
            assertEquals("openai", call.provider());
            assertEquals(200, call.status());
            assertNull(call.error());
            assertEquals(OPENAI_ONE_CALL, call.responseBody());
            assertEquals("""
                    {"model": "gpt-4o-mini", "messages": [{"role": "system", "content": "You are a weather assistant."}, \
                    {"role": "user", "content": "What's the weather like in Boston and Paris today?"}], \
                    "tools": [{"type": "function", "function": {"name": "get_weather", \
                    "description": "Get the current weather in a given location", "parameters": {"type": "object", \
                    "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}, \
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}}]}""", call.requestBody());

            var received = server.requests().getFirst();
            assertEquals("POST", received.method());
            assertEquals("/v1/chat/completions", received.path());
            assertEquals(call.requestBody(), received.body(), "the recorded body is the body sent");
            assertEquals("Bearer " + KEY, received.credential());
            assertEquals("application/json", received.headers().get("content-type"));
        }
    }

    @Test
    void parallelToolCallsKeepTheirOrder() throws Exception {
        try (var server = ScriptedModelServer.sequence(Reply.json(200, OPENAI_TWO_CALLS))) {
            Turn t = openai(server, fast("gpt-4o-mini"), new FakeEffects()).next(ASK, List.of(WEATHER));
            List<ToolCall> calls = t.message().toolCalls();
            assertEquals(
                    List.of("call_1", "call_2"),
                    calls.stream().map(ToolCall::id).toList());
            assertEquals(
                    PyDict.of("location", "Paris, France", "unit", "celsius"),
                    calls.get(1).arguments());
            assertEquals(new Usage(90, 40), t.message().usage());
        }
    }

    @Test
    void textOnlyAnswer() throws Exception {
        try (var server = ScriptedModelServer.sequence(Reply.json(200, OPENAI_TEXT))) {
            Turn t = openai(server, fast("gpt-4o-mini"), new FakeEffects()).next(ASK, List.of());
            assertEquals(
                    "\n\nHello there, how may I assist you today?", t.message().content());
            assertFalse(t.message().hasToolCalls());
            assertFalse(t.calls().getFirst().requestBody().contains("\"tools\""), "no tools, no tools field");
        }
    }

    @Test
    void refusalStandsInForMissingContent() throws Exception {
        String refusal = OPENAI_TEXT.replace(
                "\"content\": \"\\n\\nHello there, how may I assist you today?\"",
                "\"content\": null, \"refusal\": \"I can't help with that.\"");
        assertTrue(refusal.contains("refusal"));
        try (var server = ScriptedModelServer.sequence(Reply.json(200, refusal))) {
            assertEquals(
                    "I can't help with that.",
                    openai(server, fast("m"), new FakeEffects())
                            .next(ASK, List.of())
                            .message()
                            .content());
        }
    }

    @Test
    void parallelToolCallsFlagIsSentOnlyWhenSetAndOnlyWithTools() throws Exception {
        try (var server = ScriptedModelServer.start(r -> Reply.json(200, OPENAI_TEXT))) {
            FakeEffects fx = new FakeEffects();
            String unset = openai(server, fast("m"), fx)
                    .next(ASK, List.of(WEATHER))
                    .calls()
                    .getFirst()
                    .requestBody();
            String off = openai(server, fast("m").withParallelToolCalls(false), fx)
                    .next(ASK, List.of(WEATHER))
                    .calls()
                    .getFirst()
                    .requestBody();
            String on = openai(
                            server,
                            fast("m")
                                    .withParallelToolCalls(true)
                                    .withTemperature(0.0)
                                    .withMaxTokens(256),
                            fx)
                    .next(ASK, List.of(WEATHER))
                    .calls()
                    .getFirst()
                    .requestBody();
            String noTools = openai(server, fast("m").withParallelToolCalls(false), fx)
                    .next(ASK, List.of())
                    .calls()
                    .getFirst()
                    .requestBody();
            assertFalse(unset.contains("parallel_tool_calls"));
            assertTrue(off.endsWith("\"required\": [\"location\"]}}}], \"parallel_tool_calls\": false}"), off);
            assertTrue(on.endsWith(", \"parallel_tool_calls\": true, \"temperature\": 0.0, \"max_tokens\": 256}"), on);
            assertFalse(noTools.contains("parallel_tool_calls"), "OpenAI rejects parallel_tool_calls without tools");
            assertEquals(
                    List.of(unset, off, on, noTools),
                    server.requests().stream()
                            .map(ScriptedModelServer.Request::body)
                            .toList());
        }
    }

    @Test
    void historyWithToolCallsAndResultsIsEncodedInTheWireShape() {
        List<Message> history = List.of(
                new Message.System("sys"),
                new Message.User("hi"),
                new Message.Assistant(
                        "checking",
                        List.of(
                                new ToolCall("call_1", "get_weather", PyDict.of("location", "Boston")),
                                new ToolCall(
                                        "call_2",
                                        "get_weather",
                                        PyDict.empty(),
                                        "{bad",
                                        "arguments are not valid JSON"))),
                new Message.Tool("call_1", "get_weather", "{\"temp\": 20}", false),
                new Message.Tool("call_2", "get_weather", "Error: bad arguments", true),
                new Message.Assistant("It is 20 degrees."));
        String body =
                OpenAiChat.INSTANCE.encodeRequest(history, List.of(), fast("m").withExtra(PyDict.of("seed", 7)));
        assertEquals("""
                {"model": "m", "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}, \
                {"role": "assistant", "content": "checking", "tool_calls": [\
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"location\\": \\"Boston\\"}"}}, \
                {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}, \
                {"role": "tool", "content": "{\\"temp\\": 20}", "tool_call_id": "call_1"}, \
                {"role": "tool", "content": "Error: bad arguments", "tool_call_id": "call_2"}, \
                {"role": "assistant", "content": "It is 20 degrees."}], "seed": 7}""", body);
        assertEquals(
                body,
                OpenAiChat.INSTANCE.encodeRequest(history, List.of(), fast("m").withExtra(PyDict.of("seed", 7))),
                "deterministic");
    }

    @Test
    void badToolCallArgumentsAreAnAgentErrorNotARetry() throws Exception {
        try (var server = ScriptedModelServer.sequence(
                Reply.json(200, openAiWithArguments("\"{\\\"location\\\": \\\"Bost\"")),
                Reply.json(200, openAiWithArguments("\"[1, 2]\"")),
                Reply.json(200, openAiWithArguments("{\"location\": \"Oslo\"}")),
                Reply.json(200, openAiWithArguments("\"\"")),
                Reply.json(200, openAiWithArguments("null")))) {
            HttpProvider p = openai(server, fast("m"), new FakeEffects());
            Turn truncated = p.next(ASK, List.of(WEATHER));
            ToolCall c = truncated.message().toolCalls().getFirst();
            assertTrue(c.isMalformed());
            assertTrue(c.malformed().startsWith("arguments are not valid JSON"), c.malformed());
            assertEquals("{\"location\": \"Bost", c.rawArguments());
            assertEquals(PyDict.empty(), c.arguments());
            assertEquals(1, truncated.calls().size(), "not retried");
            assertNull(truncated.calls().getFirst().error());

            ToolCall list = p.next(ASK, List.of(WEATHER)).message().toolCalls().getFirst();
            assertEquals("arguments are a JSON array, not an object", list.malformed());

            ToolCall object =
                    p.next(ASK, List.of(WEATHER)).message().toolCalls().getFirst();
            assertFalse(object.isMalformed(), "object arguments (Ollama's shape) are accepted");
            assertEquals(PyDict.of("location", "Oslo"), object.arguments());

            ToolCall blank = p.next(ASK, List.of(WEATHER)).message().toolCalls().getFirst();
            assertFalse(blank.isMalformed(), "blank arguments mean no arguments");

            ToolCall missing =
                    p.next(ASK, List.of(WEATHER)).message().toolCalls().getFirst();
            assertEquals("tool call has no arguments", missing.malformed());
            assertEquals(5, server.requestCount());
        }
    }

    @Test
    void garbageBodyIsRetriedThenAnInfrastructureFailure() {
        FakeEffects fx = new FakeEffects();
        try (var server =
                ScriptedModelServer.start(r -> Reply.json(200, "<html><body>502 Bad Gateway</body></html>"))) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> openai(server, fast("m"), fx).next(ASK, List.of(WEATHER)));
            assertEquals(3, f.attempts().size());
            assertEquals(
                    List.of(1, 2, 3),
                    f.attempts().stream().map(ModelCall::attempt).toList());
            for (ModelCall c : f.attempts()) {
                assertEquals(200, c.status());
                assertTrue(c.error().startsWith("malformed response: response body is not JSON"), c.error());
                assertEquals("<html><body>502 Bad Gateway</body></html>", c.responseBody());
            }
            assertEquals(3, server.requestCount());
            assertEquals(2, fx.sleeps.size(), "no wait after the last attempt");
            assertTrue(f.getMessage().contains("3 attempts failed"), f.getMessage());
        }
    }

    @Test
    void bodyWithoutChoicesIsRetriedAndThenSucceeds() throws Exception {
        try (var server = ScriptedModelServer.sequence(
                Reply.json(200, "{\"error\": {\"message\": \"upstream overloaded\"}}"), Reply.json(200, OPENAI_TEXT))) {
            Turn t = openai(server, fast("m"), new FakeEffects()).next(ASK, List.of());
            assertEquals(2, t.calls().size());
            assertTrue(t.calls().getFirst().error().contains("upstream overloaded"));
            assertNull(t.calls().get(1).error());
        }
    }

    @Test
    void aDecoderBugIsAnInfrastructureFailureNotACrash() {
        WireFormat buggy = new WireFormat() {
            @Override
            public String name() {
                return "buggy";
            }

            @Override
            public java.net.URI endpoint(String baseUrl) {
                return OpenAiChat.INSTANCE.endpoint(baseUrl);
            }

            @Override
            public java.util.Map<String, String> headers(Secret key) {
                return java.util.Map.of();
            }

            @Override
            public String encodeRequest(List<Message> h, List<brokkr.conversation.ToolSpec> t, ProviderOptions o) {
                return OpenAiChat.INSTANCE.encodeRequest(h, t, o);
            }

            @Override
            public Message.Assistant decodeResponse(String body) {
                throw new IllegalStateException("unforeseen shape");
            }
        };
        try (var server = ScriptedModelServer.start(r -> Reply.json(200, OPENAI_TEXT))) {
            HttpProvider p = new HttpProvider(
                    buggy,
                    server.baseUrl(),
                    Secret.none(),
                    fast("m"),
                    Effects.httpClient(Duration.ofSeconds(5)),
                    new FakeEffects().effects);
            InfrastructureFailure f = assertThrows(InfrastructureFailure.class, () -> p.next(ASK, List.of()));
            assertEquals(3, f.attempts().size());
            assertEquals(
                    "malformed response: decoder failed: java.lang.IllegalStateException: unforeseen shape",
                    f.attempts().getFirst().error());
        }
    }

    @Test
    void rateLimitHonoursRetryAfterSeconds() throws Exception {
        FakeEffects fx = new FakeEffects();
        try (var server = ScriptedModelServer.sequence(
                Reply.status(
                        429,
                        "{\"error\": {\"message\": \"Rate limit reached\", \"type\": \"requests\", \"code\": \"rate_limit_exceeded\"}}",
                        "Retry-After",
                        "7"),
                Reply.json(200, OPENAI_TEXT))) {
            Turn t = openai(server, fast("m"), fx).next(ASK, List.of());
            assertEquals(List.of(Duration.ofSeconds(7)), fx.sleeps);
            assertEquals(
                    List.of(429, 200), t.calls().stream().map(ModelCall::status).toList());
            assertTrue(t.calls()
                    .getFirst()
                    .error()
                    .startsWith("HTTP 429: {\"error\": {\"message\": \"Rate limit reached\""));
            assertEquals(t.calls().get(0).requestBody(), t.calls().get(1).requestBody());
        }
    }

    @Test
    void retryAfterAsHttpDateIsRelativeToTheClockAndCapped() throws Exception {
        FakeEffects fx = new FakeEffects();
        try (var server = ScriptedModelServer.sequence(
                Reply.status(503, "overloaded", "Retry-After", "Sun, 29 Nov 2026 12:00:12 GMT"),
                Reply.status(429, "slow down", "Retry-After", "86400"),
                Reply.json(200, OPENAI_TEXT))) {
            openai(server, fast("m"), fx).next(ASK, List.of());
            assertEquals(
                    List.of(Duration.ofSeconds(12), Duration.ofSeconds(30)),
                    fx.sleeps,
                    "a day is capped at retryAfterCap");
        }
    }

    @Test
    void serverErrorThenSuccessRecordsBothAttemptsWithTheirBodies() throws Exception {
        FakeEffects fx = new FakeEffects();
        try (var server = ScriptedModelServer.sequence(
                Reply.json(
                        500,
                        "{\"error\": {\"message\": \"The server had an error while processing your request.\", \"type\": \"server_error\"}}"),
                Reply.json(200, OPENAI_ONE_CALL))) {
            Turn t = openai(server, fast("m"), fx).next(ASK, List.of(WEATHER));
            assertEquals(2, t.calls().size());
            ModelCall first = t.calls().get(0), second = t.calls().get(1);
            assertEquals(500, first.status());
            // Issue 31 item 7: the body says why (before: "HTTP 500" alone, while a 401's body was shown).
            assertEquals(
                    "HTTP 500: {\"error\": {\"message\": \"The server had an error while processing your request.\","
                            + " \"type\": \"server_error\"}}",
                    first.error());
            assertTrue(first.responseBody().contains("server_error"));
            assertEquals(2, second.attempt());
            assertEquals(server.requests().get(0).body(), first.requestBody());
            assertEquals(server.requests().get(1).body(), second.requestBody());
            assertEquals(NOW.toEpochMilli(), first.startedAtMillis());
            assertEquals(List.of(Duration.ofMillis(50)), fx.sleeps, "full jitter: 0.5 x base 100 ms");
            assertEquals("get_weather", t.message().toolCalls().getFirst().name());
        }
    }

    @Test
    void clientErrorsAreNotRetriedButRequestTimeoutAndConflictAre() throws Exception {
        FakeEffects fx = new FakeEffects();
        try (var server = ScriptedModelServer.sequence(
                Reply.json(
                        400,
                        "{\"error\": {\"message\": \"Invalid schema for function 'get_weather'\", \"type\": \"invalid_request_error\"}}"))) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> openai(server, fast("m"), fx).next(ASK, List.of(WEATHER)));
            assertEquals(1, f.attempts().size());
            assertTrue(f.attempts().getFirst().error().startsWith("HTTP 400 (not retried)"));
            assertTrue(fx.sleeps.isEmpty());
        }
        try (var server = ScriptedModelServer.sequence(
                Reply.json(408, "{}"), Reply.json(409, "{}"), Reply.json(200, OPENAI_TEXT))) {
            assertEquals(
                    3,
                    openai(server, fast("m"), fx).next(ASK, List.of()).calls().size());
        }
    }

    @Test
    void stalledConnectionTimesOutEachAttemptThenFails() throws Exception {
        // A socket that accepts and never reads or answers.
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (true) accepted.add(socket.accept());
                } catch (IOException closed) {
                    // test over
                }
            });
            FakeEffects fx = new FakeEffects();
            String base = "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> openai(base, stalling().withMaxAttempts(2), fx).next(ASK, List.of()));
            assertEquals(2, f.attempts().size());
            for (ModelCall c : f.attempts()) {
                assertEquals(0, c.status());
                assertEquals("timeout after 200 ms", c.error());
                assertNull(c.responseBody());
                assertTrue(c.durationMillis() >= 150, "the attempt waited for its timeout: " + c.durationMillis());
            }
            assertEquals(1, fx.sleeps.size());
            socket.close();
            acceptor.join();
            for (Socket s : accepted) s.close();
        }
    }

    @Test
    void bodyThatStallsMidwayTimesOutToo() {
        try (var server =
                ScriptedModelServer.start(r -> Reply.stallBody(200, "{\"id\": \"chatcmpl-1\", \"choi", 4000))) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> openai(server, stalling().withMaxAttempts(2), new FakeEffects())
                            .next(ASK, List.of()));
            assertEquals(
                    List.of("timeout after 200 ms", "timeout after 200 ms"),
                    f.attempts().stream().map(ModelCall::error).toList());
            assertEquals(2, server.requestCount());
        }
    }

    @Test
    void connectionRefusedIsRetriedAsAConnectionError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        FakeEffects fx = new FakeEffects();
        InfrastructureFailure f = assertThrows(
                InfrastructureFailure.class,
                () -> openai("http://127.0.0.1:" + port + "/v1", fast("m"), fx).next(ASK, List.of()));
        assertEquals(3, f.attempts().size());
        assertTrue(
                f.attempts().getFirst().error().startsWith("connection error: "),
                f.attempts().getFirst().error());
        // Issue 31 item 7: where it failed (before: "java.net.ConnectException" and nothing else).
        assertTrue(
                f.attempts().getFirst().error().endsWith(" connecting to 127.0.0.1:" + port),
                f.attempts().getFirst().error());
        assertTrue(f.getMessage().contains("127.0.0.1:" + port), f.getMessage());
        assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100)), fx.sleeps, "backoff doubles");
    }

    @Test
    void interruptedWhileWaitingToRetryStopsWithAnInfrastructureFailure() {
        Effects interrupting = new Effects(
                java.time.InstantSource.fixed(NOW),
                d -> {
                    throw new InterruptedException();
                },
                () -> 0.5);
        try (var server = ScriptedModelServer.sequence(Reply.json(500, "{}"))) {
            HttpProvider p = new HttpProvider(
                    OpenAiChat.INSTANCE,
                    server.baseUrl(),
                    Secret.of(KEY),
                    fast("m"),
                    Effects.httpClient(Duration.ofSeconds(1)),
                    interrupting);
            InfrastructureFailure f = assertThrows(InfrastructureFailure.class, () -> p.next(ASK, List.of()));
            assertTrue(Thread.interrupted(), "the interrupt is kept");
            assertEquals(1, f.attempts().size());
            assertTrue(f.getMessage().contains("interrupted"));
        }
    }

    /**
     * Issue 31 item 7: a retry warning is one line (before: Java logging's two, a timestamp line and the
     * message, breaking the progress bar), with the server's reason, through whatever display is current.
     */
    @Test
    void aRetryWarningIsOneLineWithTheServersReason() throws Exception {
        brokkr.command.LogLines.install();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var server = ScriptedModelServer.sequence(
                        Reply.json(500, "{\"error\": {\"message\": \"overloaded\"}}"), Reply.json(200, OPENAI_TEXT));
                var routed = brokkr.command.LogLines.through(lines::add)) {
            openai(server, fast("m"), new FakeEffects()).next(ASK, List.of());
        }
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.getFirst();
        assertFalse(line.contains("\n"), line);
        assertTrue(line.startsWith("brokkr: warning: openai m attempt 1/"), line);
        assertTrue(line.contains("(HTTP 500: {\"error\": {\"message\": \"overloaded\"}}); retrying in "), line);
    }
}
