package brokkr.provider;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Usage;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAI Chat Completions ({@code POST {base}/chat/completions}), as spoken by OpenAI and by the
 * OpenAI-compatible servers (vLLM, llama.cpp server, Ollama, LiteLLM proxies).
 *
 * <p>Request: {@code model}, {@code messages} (system / user / assistant with {@code tool_calls} /
 * tool with {@code tool_call_id}), then {@code tools} and {@code parallel_tool_calls} (only with tools:
 * OpenAI rejects the flag without them), {@code temperature}, {@code max_tokens}, then
 * {@link ProviderOptions#extra()}. Assistant tool-call arguments are re-serialized as
 * {@code json.dumps(arguments)}, as upstream tau2 does ({@code tau2/utils/llm_utils.py},
 * {@code to_litellm_messages}); a malformed call is sent back as {@code "{}"} so that servers which
 * parse history arguments (vLLM's Mistral and Llama templates) do not reject the whole request.
 *
 * <p>Response: {@code choices[0].message.content} (a string, null, or a list of text parts; a
 * {@code refusal} stands in for null content),
 * {@code tool_calls[].function.arguments} (a JSON <em>string</em>; a JSON object is accepted too, as
 * Ollama and some vLLM parsers send it), {@code usage.prompt_tokens / completion_tokens}. A tool call
 * without an id gets {@code call_missing_<index>} so its result can still be paired.
 *
 * <p>The static {@link #decodeRequest} and {@link #encodeResponse} are the server's side of the same
 * format, used by {@link brokkr.provider.testing.ScriptedModelServer} and {@link ScriptedCandidate}.
 */
public final class OpenAiChat implements WireFormat {
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    public static final OpenAiChat INSTANCE = new OpenAiChat();

    private OpenAiChat() {}

    @Override
    public String name() {
        return "openai";
    }

    @Override
    public URI endpoint(String baseUrl) {
        return URI.create(stripSlash(baseUrl) + "/chat/completions");
    }

    @Override
    public Map<String, String> headers(Secret key) {
        return key.isPresent() ? Map.of("Authorization", "Bearer " + key.reveal()) : Map.of();
    }

    @Override
    public String encodeRequest(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        return Wire.json(request(history, tools, o));
    }

    /** The request as a value, in the order it is serialized. */
    public static PyDict request(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        PyDict.Builder b = PyDict.builder();
        b.put("model", new PyStr(o.model()));
        b.put("messages", PyList.of(history.stream().map(OpenAiChat::message).toList()));
        if (!tools.isEmpty()) {
            b.put("tools", PyList.of(tools.stream().map(OpenAiChat::tool).toList()));
            if (o.parallelToolCalls() != null) b.put("parallel_tool_calls", PyBool.of(o.parallelToolCalls()));
        }
        if (o.temperature() != null) b.put("temperature", new PyFloat(o.temperature()));
        if (o.maxTokens() != null) b.put("max_tokens", PyInt.of(o.maxTokens()));
        for (var e : o.extra().entries()) b.put(e.getKey(), e.getValue());
        return b.build();
    }

    static Value message(Message m) {
        return switch (m) {
            case Message.System s -> PyDict.of("role", "system", "content", nullToEmpty(s.content()));
            // A simulated user's own tool calls belong to the user simulator's view of the conversation;
            // a model on the agent side sees the user's text only.
            case Message.User u -> PyDict.of("role", "user", "content", nullToEmpty(u.content()));
            case Message.Assistant a -> {
                // content may be null only beside tool_calls; OpenAI rejects a bare null.
                Value content =
                        a.content() != null ? new PyStr(a.content()) : a.hasToolCalls() ? PyNone.NONE : new PyStr("");
                PyDict.Builder b =
                        PyDict.builder().put("role", new PyStr("assistant")).put("content", content);
                if (a.hasToolCalls())
                    b.put(
                            "tool_calls",
                            PyList.of(a.toolCalls().stream()
                                    .map(OpenAiChat::toolCall)
                                    .toList()));
                yield b.build();
            }
            case Message.Tool t ->
                PyDict.of("role", "tool", "content", nullToEmpty(t.content()), "tool_call_id", t.toolCallId());
        };
    }

    private static Value toolCall(ToolCall c) {
        return PyDict.of(
                "id",
                c.id(),
                "type",
                "function",
                "function",
                PyDict.of("name", c.name(), "arguments", Wire.json(c.arguments())));
    }

    static Value tool(ToolSpec t) {
        PyDict.Builder f = PyDict.builder().put("name", new PyStr(t.name()));
        if (t.description() != null) f.put("description", new PyStr(t.description()));
        f.put(
                "parameters",
                t.parameters() == null ? PyDict.of("type", "object", "properties", PyDict.empty()) : t.parameters());
        return PyDict.of("type", "function", "function", f.build());
    }

    @Override
    public Message.Assistant decodeResponse(String body) throws MalformedResponse {
        PyDict root = parseObject(body);
        PyList choices = Wire.list(root.get("choices"));
        if (choices == null || choices.isEmpty()) {
            if (root.get("error") != null)
                throw new MalformedResponse(
                        "error object instead of choices: " + Wire.clip(Wire.json(root.get("error")), 300));
            throw new MalformedResponse("no choices in the response");
        }
        PyDict message = Wire.dict(Wire.at(Wire.dict(choices.get(0)), "message"));
        if (message == null) throw new MalformedResponse("choices[0].message is missing or not an object");
        Message.Assistant m = decodeAssistant(message);
        PyDict usage = Wire.dict(root.get("usage"));
        long prompt = Wire.count(usage, "prompt_tokens");
        // Cache reads are part of prompt_tokens (OpenAI bills them at its cached-input price); the chat wire
        // reports no cache writes. A server that reports more cached tokens than prompt tokens is read as all cached.
        long cached = Math.min(prompt, Wire.count(Wire.dict(Wire.at(usage, "prompt_tokens_details")), "cached_tokens"));
        return new Message.Assistant(
                m.content(), m.toolCalls(), new Usage(prompt, Wire.count(usage, "completion_tokens"), cached, 0));
    }

    /**
     * An assistant message in Chat Completions' shape ({@code content}, {@code tool_calls}), read as a response's
     * {@code choices[0].message} is (without usage): what a client stepping an environment sends as its action.
     */
    public static Message.Assistant decodeAssistant(PyDict message) throws MalformedResponse {
        String content = content(message.get("content"));
        // A refusal arrives in its own field with null content; it is still what the model said.
        if (content == null && Wire.str(message.get("refusal")) != null) content = Wire.str(message.get("refusal"));
        Value rawCalls = message.get("tool_calls");
        List<ToolCall> calls = new ArrayList<>();
        if (rawCalls instanceof PyList list) {
            for (int i = 0; i < list.size(); i++) calls.add(decodeToolCall(list.get(i), i));
        } else if (rawCalls != null && !rawCalls.isNone()) {
            throw new MalformedResponse("tool_calls is a JSON " + Wire.jsonType(rawCalls) + ", not an array");
        }
        return new Message.Assistant(content, calls);
    }

    /** A message as {@link #request} sends it in {@code messages}: what an agent on this wire reads. */
    public static Value encodeMessage(Message m) {
        return message(m);
    }

    /** A tool as {@link #request} offers it in {@code tools} ({@code {"type": "function", "function": ...}}). */
    public static Value encodeTool(ToolSpec t) {
        return tool(t);
    }

    private static String content(Value v) throws MalformedResponse {
        if (v == null || v.isNone()) return null;
        if (v instanceof PyStr s) return s.value();
        if (v instanceof PyList parts) {
            // Some compatible servers return content parts; the text parts make the message.
            StringBuilder sb = new StringBuilder();
            for (Value p : parts) {
                PyDict d = Wire.dict(p);
                if (d != null && "text".equals(Wire.str(d.get("type"))) && Wire.str(d.get("text")) != null)
                    sb.append(Wire.str(d.get("text")));
            }
            return sb.toString();
        }
        throw new MalformedResponse("message.content is a JSON " + Wire.jsonType(v));
    }

    private static ToolCall decodeToolCall(Value v, int index) {
        PyDict tc = Wire.dict(v);
        String id = tc == null ? null : Wire.str(tc.get("id"));
        if (id == null || id.isEmpty()) id = "call_missing_" + index;
        PyDict fn = Wire.dict(Wire.at(tc, "function"));
        if (fn == null)
            return new ToolCall(
                    id, "", PyDict.empty(), tc == null ? Wire.json(v) : null, "tool call has no function object");
        String name = Wire.str(fn.get("name"));
        Value args = fn.get("arguments");
        if (args instanceof PyStr s) return Wire.fromArgumentText(id, name, s.value());
        if (args == null || args.isNone()) return Wire.fromArgumentText(id, name, null);
        return Wire.fromArgumentValue(id, name, args);
    }

    static PyDict parseObject(String body) throws MalformedResponse {
        Value v;
        try {
            v = Json.parse(body == null ? "" : body);
        } catch (Json.JsonFormatException e) {
            throw new MalformedResponse("response body is not JSON: " + Wire.clip(body, 200));
        }
        if (v instanceof PyDict d) return d;
        throw new MalformedResponse("response body is a JSON " + Wire.jsonType(v) + ", not an object");
    }

    // ---- the server's side ----

    /**
     * Reads a Chat Completions request back into Brokkr messages (the inverse of {@link #request});
     * a tool message's name is taken from the assistant call it answers. Throws
     * {@link IllegalArgumentException} for a body that is not such a request.
     */
    public static DecodedRequest decodeRequest(String body) {
        PyDict root;
        try {
            root = parseObject(body);
        } catch (MalformedResponse e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        PyList msgs = Wire.list(root.get("messages"));
        if (msgs == null) throw new IllegalArgumentException("request has no messages array");
        List<Message> history = new ArrayList<>();
        Map<String, String> callNames = new HashMap<>();
        for (Value mv : msgs) {
            PyDict m = Wire.dict(mv);
            String role = Wire.str(Wire.at(m, "role"));
            if (role == null)
                throw new IllegalArgumentException("message without a role: " + Wire.clip(Wire.json(mv), 200));
            String content = requestContent(m.get("content"));
            switch (role) {
                case "system", "developer" -> history.add(new Message.System(content));
                case "user" -> history.add(new Message.User(content));
                case "assistant" -> {
                    List<ToolCall> calls = new ArrayList<>();
                    if (m.get("tool_calls") instanceof PyList list) {
                        for (int i = 0; i < list.size(); i++) {
                            ToolCall c = decodeToolCall(list.get(i), i);
                            callNames.put(c.id(), c.name());
                            calls.add(c);
                        }
                    }
                    history.add(new Message.Assistant(content, calls));
                }
                case "tool" -> {
                    String id = Wire.str(m.get("tool_call_id"));
                    String name = Wire.str(m.get("name"));
                    history.add(new Message.Tool(id, name != null ? name : callNames.get(id), content, false));
                }
                default -> throw new IllegalArgumentException("unknown role " + role);
            }
        }
        List<ToolSpec> tools = new ArrayList<>();
        if (root.get("tools") instanceof PyList list) {
            for (Value tv : list) {
                PyDict fn = Wire.dict(Wire.at(Wire.dict(tv), "function"));
                if (fn == null) throw new IllegalArgumentException("tool without a function object");
                tools.add(new ToolSpec(
                        Wire.str(fn.get("name")), Wire.str(fn.get("description")), Wire.dict(fn.get("parameters"))));
            }
        }
        return new DecodedRequest(Wire.str(root.get("model")), history, tools, root);
    }

    private static String requestContent(Value v) {
        try {
            return content(v);
        } catch (MalformedResponse e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /**
     * A Chat Completions response carrying {@code m}, shaped like OpenAI's documented example
     * ({@code finish_reason} {@code "tool_calls"} when there are calls). A call's arguments are sent as
     * its {@code rawArguments} when it has them (so a script can emit malformed arguments on purpose),
     * else as {@code json.dumps(arguments)}.
     */
    public static PyDict encodeResponse(Message.Assistant m, String model, String id) {
        PyDict.Builder msg = PyDict.builder()
                .put("role", new PyStr("assistant"))
                .put("content", m.content() == null ? PyNone.NONE : new PyStr(m.content()));
        if (m.hasToolCalls()) {
            msg.put(
                    "tool_calls",
                    PyList.of(m.toolCalls().stream()
                            .map(c -> (Value) PyDict.of(
                                    "id",
                                    c.id(),
                                    "type",
                                    "function",
                                    "function",
                                    PyDict.of(
                                            "name",
                                            c.name(),
                                            "arguments",
                                            c.rawArguments() != null ? c.rawArguments() : Wire.json(c.arguments()))))
                            .toList()));
        }
        Usage u = m.usage() == null ? Usage.ZERO : m.usage();
        return PyDict.of(
                "id",
                id,
                "object",
                "chat.completion",
                "created",
                0,
                "model",
                model,
                "choices",
                PyList.of(PyDict.of(
                        "index",
                        0,
                        "message",
                        msg.build(),
                        "logprobs",
                        null,
                        "finish_reason",
                        m.hasToolCalls() ? "tool_calls" : "stop")),
                "usage",
                usage(u));
    }

    /** Usage as chat completions report it; {@code prompt_tokens_details} only when some input was a cache read. */
    private static PyDict usage(Usage u) {
        PyDict.Builder b = PyDict.builder()
                .put("prompt_tokens", u.inputTokens())
                .put("completion_tokens", u.outputTokens())
                .put("total_tokens", u.inputTokens() + u.outputTokens());
        if (u.cacheReadTokens() > 0) b.put("prompt_tokens_details", PyDict.of("cached_tokens", u.cacheReadTokens()));
        return b.build();
    }

    static String stripSlash(String base) {
        String b = base.strip();
        while (b.endsWith("/")) b = b.substring(0, b.length() - 1);
        return b;
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    @Override
    public String toString() {
        return "OpenAiChat";
    }
}
