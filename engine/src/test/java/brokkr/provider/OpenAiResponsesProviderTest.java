package brokkr.provider;

import static brokkr.provider.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.agent.AgentLoop;
import brokkr.agent.Transcript;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.cost.PriceTable;
import brokkr.eval.Transcripts;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The OpenAI Responses wire against a loopback server: encrypted reasoning carried between the steps of a tool
 * episode (the server refuses a request that does not carry it), parallel calls, a refused
 * {@code parallel_tool_calls}, streamed and plain responses, usage for cost, the provider contract (exact request
 * recorded, retries, cap, redaction).
 */
@Timeout(30)
class OpenAiResponsesProviderTest {

    static HttpProvider responses(ScriptedModelServer s, ProviderOptions o, FakeEffects fx) {
        return new HttpProvider(
                OpenAiResponses.INSTANCE, s.baseUrl(), Secret.of(KEY), o, Effects.httpClient(o.timeout()), fx.effects);
    }

    static PyDict reasoningItem(String id, String encrypted, String summary) {
        return PyDict.of(
                "type",
                "reasoning",
                "id",
                id,
                "summary",
                PyList.of(PyDict.of("type", "summary_text", "text", summary)),
                "encrypted_content",
                encrypted);
    }

    static ToolCall call(String id, String city) {
        return new ToolCall(id, "get_weather", PyDict.of("location", city));
    }

    /** The input items of a request that are of {@code type}. */
    static List<PyDict> items(ScriptedModelServer.Request r, String type) {
        List<PyDict> out = new ArrayList<>();
        for (Value v : r.json().get("input").asList())
            if (type.equals(v.asDict().get("type").asStr())) out.add(v.asDict());
        return out;
    }

    static Reply refuse(String why) {
        return Reply.json(
                400, PyJson.dumps(PyDict.of("error", PyDict.of("message", why, "type", "invalid_request_error"))));
    }

    /**
     * Three steps through the real agent loop: two tool calls, each after a reasoning item with encrypted content,
     * then the answer. The server answers each step only if the request carries every earlier reasoning item
     * verbatim, before the call it led to, with {@code include} and {@code store: false}; otherwise it refuses
     * (as OpenAI does when a function call's reasoning is missing), and the episode fails.
     */
    @Test
    void aMultiStepToolEpisodeSendsEachReasoningItemBack() throws Exception {
        PyDict r1 = reasoningItem("rs_1", "gAAAAB-step-one-opaque", "Need Boston first.");
        PyDict r2 = reasoningItem("rs_2", "gAAAAB-step-two-opaque", "Now Paris.");
        List<Message.Assistant> script = List.of(
                new Message.Assistant(
                        null, List.of(call("call_1", "Boston, MA")), new Usage(50, 40, 0, 0, 32), List.of(r1)),
                new Message.Assistant(null, List.of(call("call_2", "Paris")), new Usage(90, 30, 0, 0, 20), List.of(r2)),
                new Message.Assistant("Boston 18C, Paris 21C.", List.of(), new Usage(130, 10), List.of()));
        try (var server = ScriptedModelServer.start(req -> {
            PyDict body = req.json();
            if (!body.get("include").equals(PyList.of(new PyStr("reasoning.encrypted_content"))))
                return refuse("include must ask for reasoning.encrypted_content");
            if (!(body.get("store") instanceof PyBool b) || b.value()) return refuse("store must be false");
            if (!body.get("reasoning").equals(PyDict.of("effort", "high")))
                return refuse("reasoning effort not sent: " + body.get("reasoning"));
            List<PyDict> sent = items(req, "reasoning");
            List<PyDict> expected = List.of(r1, r2).subList(0, req.index());
            if (!sent.equals(expected))
                return refuse("reasoning items not sent back: got " + sent + ", expected " + expected);
            // Each reasoning item comes right before the function call it led to.
            PyList input = body.get("input").asList();
            for (int i = 0; i < input.size(); i++)
                if ("reasoning".equals(input.get(i).asDict().get("type").asStr())
                        && !"function_call"
                                .equals(input.get(i + 1).asDict().get("type").asStr()))
                    return refuse("reasoning item not followed by its function call");
            return ScriptedModelServer.responseReply(script.get(req.index()), "o4-mini", "resp_" + req.index(), req);
        })) {
            HttpProvider p = responses(
                    server, fast("o4-mini").withExtra(PyDict.of("reasoning_effort", "high")), new FakeEffects());
            Transcript t = new AgentLoop(10)
                    .run(
                            p,
                            ASK,
                            List.of(WEATHER),
                            calls -> calls.stream()
                                    .map(c -> new Message.Tool(
                                            c.id(),
                                            c.name(),
                                            "18C in "
                                                    + c.arguments()
                                                            .get("location")
                                                            .asStr(),
                                            false))
                                    .toList());
            assertNull(t.failure(), () -> String.valueOf(t.failure()));
            assertEquals(Transcript.Stop.ANSWERED, t.stop());
            assertEquals(3, server.requestCount());
            assertEquals("Boston 18C, Paris 21C.", t.messages().getLast().content());
            // Outputs answer the calls by call_id.
            assertEquals(
                    List.of("call_1", "call_2"),
                    items(server.requests().get(2), "function_call_output").stream()
                            .map(d -> d.get("call_id").asStr())
                            .toList());
            // Usage summed with the reasoning tokens apart; the reasoning is in the transcript's evidence.
            assertEquals(new Usage(270, 80, 0, 0, 52), t.usage());
            PyList transcript = Transcripts.toValue(t.messages());
            assertEquals(PyList.of(r1), transcript.get(2).asDict().get("reasoning"));
            assertEquals(t.messages(), Transcripts.fromValue(transcript), "the transcript reads back whole");
        }
    }

    @Test
    void theRequestIsRecordedExactlyWithStrictToolsAndTheOptionsInTheirPlaces() throws Exception {
        try (var server = ScriptedModelServer.sequence(
                Reply.json(OpenAiResponses.encodeResponse(new Message.Assistant("Hi."), "gpt-5", "resp_1")))) {
            ProviderOptions o = fast("gpt-5")
                    .withParallelToolCalls(false)
                    .withMaxTokens(512)
                    .withTemperature(0.0)
                    .withExtra(PyDict.of("reasoning_effort", "low", "strict_tools", true, "seed", 7));
            Turn t = responses(server, o, new FakeEffects()).next(ASK, List.of(WEATHER));
            ModelCall call = t.calls().getFirst();
            assertEquals("openai-responses", call.provider());
            assertEquals("""
                    {"model": "gpt-5", "input": [{"type": "message", "role": "system", "content": "You are a weather assistant."}, \
                    {"type": "message", "role": "user", "content": "What's the weather like in Boston and Paris today?"}], \
                    "tools": [{"type": "function", "name": "get_weather", \
                    "description": "Get the current weather in a given location", "parameters": {"type": "object", \
                    "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}, \
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}, "strict": true}], \
                    "parallel_tool_calls": false, "reasoning": {"effort": "low"}, "include": ["reasoning.encrypted_content"], \
                    "store": false, "temperature": 0.0, "max_output_tokens": 512, "seed": 7}""", call.requestBody());
            var received = server.requests().getFirst();
            assertEquals("/v1/responses", received.path());
            assertEquals(call.requestBody(), received.body(), "the recorded body is the body sent");
            assertEquals("Bearer " + KEY, received.credential());
            assertEquals("Hi.", t.message().content());
            // The server's side reads the request back as it was meant.
            assertEquals(ASK, received.responses().history());
            assertEquals(List.of(WEATHER), received.responses().tools());
        }
    }

    @Test
    void parallelCallsInOneResponseKeepTheirOrderAndCallIds() throws Exception {
        String body = """
                {"id": "resp_67", "object": "response", "status": "completed", "model": "gpt-5", "output": [
                  {"type": "reasoning", "id": "rs_9", "summary": [], "encrypted_content": "gAAAA-enc"},
                  {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                   "content": [{"type": "output_text", "text": "Checking both.", "annotations": []}]},
                  {"type": "function_call", "id": "fc_1", "call_id": "call_boston", "name": "get_weather",
                   "arguments": "{\\"location\\": \\"Boston, MA\\"}", "status": "completed"},
                  {"type": "function_call", "id": "fc_2", "call_id": "call_paris", "name": "get_weather",
                   "arguments": "{\\"location\\": \\"Paris, France\\", \\"unit\\": \\"celsius\\"}", "status": "completed"},
                  {"type": "function_call", "id": "fc_3", "call_id": "call_bad", "name": "get_weather",
                   "arguments": "{\\"location\\": ", "status": "completed"}],
                 "usage": {"input_tokens": 80, "output_tokens": 60, "total_tokens": 140}}""";
        try (var server = ScriptedModelServer.sequence(Reply.json(200, body))) {
            Turn t = responses(server, fast("gpt-5").withParallelToolCalls(true), new FakeEffects())
                    .next(ASK, List.of(WEATHER));
            Message.Assistant m = t.message();
            assertEquals("Checking both.", m.content());
            assertEquals(
                    List.of("call_boston", "call_paris", "call_bad"),
                    m.toolCalls().stream().map(ToolCall::id).toList());
            assertEquals(
                    PyDict.of("location", "Paris, France", "unit", "celsius"),
                    m.toolCalls().get(1).arguments());
            assertTrue(m.toolCalls().get(2).isMalformed(), "a call's bad arguments are the model's error, not retried");
            assertEquals(1, server.requestCount());
            assertEquals(1, m.reasoning().size());
            assertEquals(
                    "gAAAA-enc",
                    m.reasoning().getFirst().get("encrypted_content").asStr());
            assertEquals(PyBool.TRUE, server.requests().getFirst().json().get("parallel_tool_calls"));
            // Sent back: reasoning, the text, then every call (the malformed one as {}), each answered by call_id.
            List<Message> next = new ArrayList<>(ASK);
            next.add(m);
            for (ToolCall c : m.toolCalls()) next.add(new Message.Tool(c.id(), c.name(), "ok", false));
            PyList input = OpenAiResponses.request(next, List.of(WEATHER), fast("gpt-5"))
                    .get("input")
                    .asList();
            assertEquals(
                    List.of(
                            "message",
                            "message",
                            "reasoning",
                            "message",
                            "function_call",
                            "function_call",
                            "function_call",
                            "function_call_output",
                            "function_call_output",
                            "function_call_output"),
                    input.stream().map(v -> v.asDict().get("type").asStr()).toList());
            assertEquals("{}", input.get(6).asDict().get("arguments").asStr());
            assertEquals(
                    next,
                    OpenAiResponses.decodeRequest(PyJson.dumps(PyDict.of("input", input))).history().stream()
                            .map(x -> x instanceof Message.Assistant a
                                    ? new Message.Assistant(a.content(), m.toolCalls(), m.usage(), a.reasoning())
                                    : x)
                            .toList());
        }
    }

    /**
     * Some backends refuse {@code parallel_tool_calls} in some request shapes with a 400. That is reported at once,
     * naming the option that asked for it, and the request is never sent again without it.
     */
    @Test
    void aRefusedParallelToolCallsIsAClearErrorNeverDropped() {
        String refusal = """
                {"error": {"message": "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", \
                "type": "invalid_request_error", "param": "parallel_tool_calls", "code": "unsupported_parameter"}}""";
        try (var server = ScriptedModelServer.start(req -> req.json().containsKey("parallel_tool_calls")
                ? Reply.json(400, refusal)
                : Reply.json(OpenAiResponses.encodeResponse(new Message.Assistant("fine"), "m", "resp_1")))) {
            FakeEffects fx = new FakeEffects();
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> responses(server, fast("m").withParallelToolCalls(false), fx)
                            .next(ASK, List.of(WEATHER)));
            assertEquals(1, server.requestCount(), "not retried, not re-sent without the option");
            assertEquals(List.of(), fx.sleeps);
            assertTrue(f.getMessage().contains("HTTP 400 (not retried)"), f.getMessage());
            assertTrue(f.getMessage().contains("Unsupported parameter: 'parallel_tool_calls'"), f.getMessage());
            assertTrue(
                    f.getMessage()
                            .contains("the server refused what the model options asked (parallel_tool_calls=false)"),
                    f.getMessage());
            ModelCall attempt = f.attempts().getFirst();
            assertEquals(400, attempt.status());
            assertTrue(attempt.requestBody().contains("\"parallel_tool_calls\": false"));
            assertEquals(attempt.error(), f.attempts().getFirst().error());
            // Without the option the same server answers: the refusal was about that field alone.
            assertDoesNotThrow(() -> responses(server, fast("m"), fx).next(ASK, List.of(WEATHER)));
        }
    }

    @Test
    void aStreamedResponseIsAssembledRecordedRawAndReplaysAlike() throws Exception {
        PyDict r = reasoningItem("rs_s", "gAAAA-streamed", "Two cities.");
        Message.Assistant said = new Message.Assistant(
                "Looking up both.",
                List.of(call("call_a", "Boston, MA"), call("call_b", "Paris")),
                new Usage(300, 120, 256, 0, 64),
                List.of(r));
        try (var server =
                ScriptedModelServer.start(req -> ScriptedModelServer.responseReply(said, "gpt-5", "resp_s", req))) {
            HttpProvider p = responses(server, fast("gpt-5").withExtra(PyDict.of("stream", true)), new FakeEffects());
            Turn t = p.next(ASK, List.of(WEATHER));
            assertEquals(PyBool.TRUE, server.requests().getFirst().json().get("stream"));
            String raw = t.calls().getFirst().responseBody();
            assertTrue(raw.startsWith("event: response.created\ndata: {"), raw);
            assertTrue(raw.contains("event: response.output_item.done\n"), raw);
            assertTrue(raw.contains("event: response.completed\n"), raw);
            assertEquals(OpenAiResponses.encodeStream(said, "gpt-5", "resp_s"), raw, "the raw stream is recorded");
            assertEquals(said.content(), t.message().content());
            assertEquals(
                    List.of("call_a", "call_b"),
                    t.message().toolCalls().stream().map(ToolCall::id).toList());
            assertEquals(
                    said.toolCalls().get(1).arguments(),
                    t.message().toolCalls().get(1).arguments());
            assertEquals(List.of(r), t.message().reasoning());
            assertEquals(new Usage(300, 120, 256, 0, 64), t.message().usage());
            // A cached stream answers exactly as the call it was recorded from; so does the same message unstreamed.
            assertEquals(t.message(), p.replay(raw));
            try (var plain =
                    ScriptedModelServer.start(req -> ScriptedModelServer.responseReply(said, "gpt-5", "resp_s", req))) {
                Turn u = responses(plain, fast("gpt-5"), new FakeEffects()).next(ASK, List.of(WEATHER));
                assertTrue(u.calls().getFirst().responseBody().startsWith("{"));
                assertEquals(t.message(), u.message());
            }
        }
    }

    /** Some compatible servers end with a response.completed that repeats no output: the done items make it. */
    @Test
    void streamItemsComeFromOutputItemDoneEventsAndABrokenStreamIsRetried() throws Exception {
        String events = """
                event: response.created
                data: {"type": "response.created", "response": {"id": "resp_x", "status": "in_progress", "output": []}}

                event: response.output_text.delta
                data: {"type": "response.output_text.delta", "output_index": 1, "delta": "ignored partial"}

                event: response.output_item.done
                data: {"type": "response.output_item.done", "output_index": 1, "item": {"type": "function_call", "call_id": "call_z", "name": "get_weather", "arguments": "{\\"location\\": \\"Oslo\\"}"}}

                event: response.output_item.done
                data: {"type": "response.output_item.done", "output_index": 0, "item": {"type": "reasoning", "id": "rs_z", "summary": [], "encrypted_content": "enc-z"}}

                event: response.completed
                data: {"type": "response.completed", "response": {"id": "resp_x", "status": "completed", "output": [], \
                "usage": {"input_tokens": 10, "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 3}}}}

                """;
        Message.Assistant m = OpenAiResponses.INSTANCE.decodeResponse(events);
        assertEquals(List.of("call_z"), m.toolCalls().stream().map(ToolCall::id).toList());
        assertEquals("enc-z", m.reasoning().getFirst().get("encrypted_content").asStr());
        assertNull(m.content(), "deltas are not read: the done items repeat them whole");
        assertEquals(new Usage(10, 5, 0, 0, 3), m.usage());

        String cut = events.substring(0, events.indexOf("event: response.completed"));
        String failed = "event: response.failed\ndata: {\"type\": \"response.failed\", \"response\": {\"status\": "
                + "\"failed\", \"error\": {\"code\": \"server_error\", \"message\": \"boom\"}}}\n\n";
        try (var server = ScriptedModelServer.sequence(
                Reply.status(200, cut, "Content-Type", "text/event-stream"),
                Reply.status(200, failed, "Content-Type", "text/event-stream"),
                Reply.status(200, events, "Content-Type", "text/event-stream"))) {
            FakeEffects fx = new FakeEffects();
            Turn t = responses(server, fast("m").withExtra(PyDict.of("stream", true)), fx)
                    .next(ASK, List.of(WEATHER));
            assertEquals(3, t.calls().size());
            assertTrue(t.calls().get(0).error().contains("stream ended after 4 events without response.completed"));
            assertTrue(
                    t.calls().get(1).error().contains("stream reported response.failed"),
                    t.calls().get(1).error());
            assertTrue(t.calls().get(1).error().contains("boom"));
            assertEquals(2, fx.sleeps.size());
            assertEquals("call_z", t.message().toolCalls().getFirst().id());
        }
    }

    /** Input, cached input, output and reasoning tokens; billed at the model's prices as on the chat wire. */
    @Test
    void usageIsReadForCost() throws Exception {
        String body = """
                {"id": "resp_u", "object": "response", "status": "completed", "output": [
                  {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}],
                 "usage": {"input_tokens": 1200, "input_tokens_details": {"cached_tokens": 1000},
                  "output_tokens": 300, "output_tokens_details": {"reasoning_tokens": 256}, "total_tokens": 1500}}""";
        Usage u = OpenAiResponses.INSTANCE.decodeResponse(body).usage();
        assertEquals(new Usage(1200, 300, 1000, 0, 256), u);
        // gpt-5 in the pinned table: $1.25 in, $0.125 cached, $10 out per million; reasoning is billed as the output
        // it is part of: 200*1.25 + 1000*0.125 + 300*10 = 3375e-6.
        assertEquals(3375e-6, PriceTable.pinned().usd("openai-responses", "gpt-5", u, LocalDate.of(2026, 1, 1)), 1e-12);
        assertEquals(
                PriceTable.pinned().usd("openai", "gpt-5", u, LocalDate.of(2026, 1, 1)),
                PriceTable.pinned().usd("openai-responses", "gpt-5", u, LocalDate.of(2026, 1, 1)));
        // A server that reports more cached or reasoning tokens than there are: all of them.
        assertEquals(
                new Usage(1200, 300, 1200, 0, 300),
                OpenAiResponses.INSTANCE
                        .decodeResponse(body.replace("1000}", "5000}").replace("256}", "999}"))
                        .usage());
    }

    @Test
    void bodiesThatAreNoResponseAreRetriedAndAFailedResponseSaysWhy() throws Exception {
        String failed =
                "{\"id\": \"r\", \"status\": \"failed\", \"output\": [], \"error\": {\"code\": \"server_error\","
                        + " \"message\": \"The model had a problem\"}}";
        try (var server = ScriptedModelServer.sequence(
                Reply.json(200, "<html>proxy</html>"),
                Reply.json(200, failed),
                Reply.json(200, "{\"error\": {\"message\": \"quota\"}}"))) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> responses(server, fast("m"), new FakeEffects()).next(ASK, List.of()));
            List<String> errors = f.attempts().stream().map(ModelCall::error).toList();
            assertTrue(errors.get(0).startsWith("malformed response: response body is not JSON"), errors.get(0));
            assertTrue(
                    errors.get(1).contains("response failed") && errors.get(1).contains("The model had a problem"));
            assertTrue(errors.get(2).contains("error object instead of output"), errors.get(2));
        }
    }

    /** A stream over the response cap is not read further and fails the call at once. */
    @Test
    void aStreamOverTheCapIsNotReadFurther() {
        Message.Assistant big = new Message.Assistant("x".repeat(4000));
        try (var server =
                ScriptedModelServer.start(req -> ScriptedModelServer.responseReply(big, "m", "resp_big", req))) {
            InfrastructureFailure f = assertThrows(
                    InfrastructureFailure.class,
                    () -> responses(
                                    server,
                                    fast("m")
                                            .withExtra(PyDict.of("stream", true))
                                            .withMaxResponseBytes(2048),
                                    new FakeEffects())
                            .next(ASK, List.of()));
            assertEquals(1, server.requestCount());
            assertTrue(f.getMessage().contains("over the 2048-byte cap"), f.getMessage());
        }
    }

    /** A server echoing the key in reasoning, text and arguments: scrubbed from the message and the record. */
    @Test
    void anEchoedKeyIsScrubbedFromReasoningItemsTextAndRecords() throws Exception {
        Message.Assistant echo = new Message.Assistant(
                "your key is " + KEY,
                List.of(new ToolCall("call_k", "get_weather", PyDict.of("location", KEY))),
                Usage.ZERO,
                List.of(reasoningItem("rs_k", "enc", "The user's key is " + KEY)));
        for (boolean stream : List.of(false, true)) {
            try (var server =
                    ScriptedModelServer.start(req -> ScriptedModelServer.responseReply(echo, "m", "resp_k", req))) {
                Turn t = responses(server, fast("m").withExtra(PyDict.of("stream", stream)), new FakeEffects())
                        .next(ASK, List.of(WEATHER));
                assertFalse(t.message().toString().contains(KEY), t.message().toString());
                assertFalse(t.calls().getFirst().responseBody().contains(KEY));
                String summary = t.message()
                        .reasoning()
                        .getFirst()
                        .get("summary")
                        .asList()
                        .get(0)
                        .asDict()
                        .get("text")
                        .asStr();
                assertFalse(summary.contains(KEY), summary);
                assertTrue(summary.startsWith("The user's key is "), summary);
                // The redacted reasoning is what goes back: the next request does not carry the key either.
                List<Message> next = new ArrayList<>(ASK);
                next.add(t.message());
                assertFalse(OpenAiResponses.INSTANCE
                        .encodeRequest(next, List.of(WEATHER), fast("m"))
                        .contains(KEY));
            }
        }
    }

    @Test
    void theProviderIsMadeFromTheOpenAiVariables() {
        try (var server = ScriptedModelServer.start(req -> Reply.json(200, "{}"))) {
            ModelProvider p = Providers.fromEnvironment(
                    Map.of("OPENAI_BASE_URL", server.baseUrl()), "openai-responses", "gpt-5", fast("x"));
            assertEquals("openai-responses", p.provider());
            assertEquals(
                    server.baseUrl() + "/responses",
                    ((HttpProvider) p).endpoint().toString());
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Providers.fromEnvironment(Map.of(), "openai-responses", "gpt-5", fast("x")));
        assertTrue(e.getMessage().contains("OPENAI_API_KEY is not set"), e.getMessage());
    }
}
