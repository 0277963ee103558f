package brokkr.provider;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Usage;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Anthropic Messages ({@code POST {base}/v1/messages}, {@code anthropic-version: 2023-06-01}).
 *
 * <p>Request: {@code model}, {@code max_tokens} (required by the API), {@code system} (every system
 * message, joined by a blank line, taken out of the message list), {@code messages}, {@code tools} as
 * {@code {name, description, input_schema}}, {@code tool_choice: {"type": "auto",
 * "disable_parallel_tool_use": true}} when parallel calls are switched off, {@code temperature}, then
 * {@link ProviderOptions#extra()}. Assistant tool calls become {@code tool_use} blocks; tool results
 * become {@code tool_result} blocks of a user message, consecutive results merged into one message
 * (the API requires every result of a parallel turn in the user message that follows it), and so are
 * any other consecutive same-role messages; a conversation opening with the assistant gets a
 * placeholder user turn (see {@link #messages}). An assistant message with neither text nor calls is
 * left out: the API rejects empty content.
 *
 * <p>Response: the {@code text} blocks of {@code content} concatenated (as LiteLLM does in its Anthropic
 * transformation, which upstream tau2 goes through), {@code tool_use} blocks in order, other blocks
 * (thinking) ignored; {@code usage.input_tokens} plus the cache-read and cache-creation tokens (which
 * Anthropic counts apart, unlike OpenAI's {@code prompt_tokens}) and {@code usage.output_tokens}.
 */
public final class AnthropicMessages implements WireFormat {
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";
    public static final String API_VERSION = "2023-06-01";
    public static final AnthropicMessages INSTANCE = new AnthropicMessages();

    private AnthropicMessages() {}

    @Override
    public String name() {
        return "anthropic";
    }

    @Override
    public URI endpoint(String baseUrl) {
        String b = OpenAiChat.stripSlash(baseUrl);
        // ANTHROPIC_BASE_URL is the host root for Anthropic's SDKs; accept a base that already ends in /v1.
        return URI.create(b.endsWith("/v1") ? b + "/messages" : b + "/v1/messages");
    }

    @Override
    public Map<String, String> headers(Secret key) {
        Map<String, String> h = new LinkedHashMap<>();
        if (key.isPresent()) h.put("x-api-key", key.reveal());
        h.put("anthropic-version", API_VERSION);
        return h;
    }

    @Override
    public String encodeRequest(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        return Wire.json(request(history, tools, o));
    }

    public static PyDict request(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        PyDict.Builder b = PyDict.builder();
        b.put("model", new PyStr(o.model()));
        b.put(
                "max_tokens",
                PyInt.of(o.maxTokens() != null ? o.maxTokens() : ProviderOptions.ANTHROPIC_DEFAULT_MAX_TOKENS));
        List<String> system = history.stream()
                .filter(m -> m instanceof Message.System && m.content() != null)
                .map(Message::content)
                .toList();
        if (!system.isEmpty()) b.put("system", new PyStr(String.join("\n\n", system)));
        b.put("messages", PyList.of(messages(history)));
        if (!tools.isEmpty()) {
            b.put("tools", PyList.of(tools.stream().map(AnthropicMessages::tool).toList()));
            if (Boolean.FALSE.equals(o.parallelToolCalls())) {
                b.put("tool_choice", PyDict.of("type", "auto", "disable_parallel_tool_use", true));
            }
        }
        if (o.temperature() != null) b.put("temperature", new PyFloat(o.temperature()));
        for (var e : o.extra().entries()) b.put(e.getKey(), e.getValue());
        return b.build();
    }

    /** One API message under construction: a role and its content blocks. */
    private record Entry(String role, List<Value> blocks) {}

    /**
     * The API's alternating user/assistant list. Consecutive messages of one role are merged into one
     * message (tool results first, as they arrive), as LiteLLM's {@code anthropic_messages_pt} does
     * ({@code litellm/litellm_core_utils/prompt_templates/factory.py}); a conversation that does not
     * open with a user turn (tau2's agent opens with its greeting) gets LiteLLM's placeholder user
     * message {@code "."} in front, since the API requires the first message to be the user's.
     * A message of a single text block is sent in the string form.
     */
    private static List<Value> messages(List<Message> history) {
        List<Entry> entries = new ArrayList<>();
        for (Message m : history) {
            switch (m) {
                case Message.System s -> {}
                case Message.User u -> add(entries, "user", List.of(text(u.content() == null ? "" : u.content())));
                case Message.Tool t -> {
                    PyDict.Builder r = PyDict.builder()
                            .put("type", new PyStr("tool_result"))
                            .put("tool_use_id", new PyStr(t.toolCallId()))
                            .put("content", new PyStr(t.content() == null ? "" : t.content()));
                    if (t.error()) r.put("is_error", PyBool.TRUE);
                    add(entries, "user", List.of(r.build()));
                }
                case Message.Assistant a -> {
                    List<Value> blocks = new ArrayList<>();
                    if (a.content() != null && !a.content().isEmpty()) blocks.add(text(a.content()));
                    for (ToolCall c : a.toolCalls()) {
                        blocks.add(
                                PyDict.of("type", "tool_use", "id", c.id(), "name", c.name(), "input", c.arguments()));
                    }
                    if (!blocks.isEmpty()) add(entries, "assistant", blocks);
                }
            }
        }
        if (entries.isEmpty() || !entries.getFirst().role().equals("user"))
            entries.addFirst(new Entry("user", new ArrayList<>(List.of(text(".")))));
        List<Value> out = new ArrayList<>();
        for (Entry e : entries) {
            boolean singleText = e.blocks().size() == 1
                    && "text".equals(Wire.str(((PyDict) e.blocks().getFirst()).get("type")));
            out.add(PyDict.of(
                    "role",
                    e.role(),
                    "content",
                    singleText ? ((PyDict) e.blocks().getFirst()).get("text") : PyList.of(e.blocks())));
        }
        return out;
    }

    private static void add(List<Entry> entries, String role, List<Value> blocks) {
        if (!entries.isEmpty() && entries.getLast().role().equals(role))
            entries.getLast().blocks().addAll(blocks);
        else entries.add(new Entry(role, new ArrayList<>(blocks)));
    }

    private static Value text(String t) {
        return PyDict.of("type", "text", "text", t);
    }

    private static Value tool(ToolSpec t) {
        PyDict.Builder b = PyDict.builder().put("name", new PyStr(t.name()));
        if (t.description() != null) b.put("description", new PyStr(t.description()));
        b.put(
                "input_schema",
                t.parameters() == null ? PyDict.of("type", "object", "properties", PyDict.empty()) : t.parameters());
        return b.build();
    }

    @Override
    public Message.Assistant decodeResponse(String body) throws MalformedResponse {
        PyDict root = OpenAiChat.parseObject(body);
        PyList content = Wire.list(root.get("content"));
        if (content == null) {
            if (root.get("error") != null)
                throw new MalformedResponse(
                        "error object instead of content: " + Wire.clip(Wire.json(root.get("error")), 300));
            throw new MalformedResponse("no content array in the response");
        }
        StringBuilder text = null;
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < content.size(); i++) {
            PyDict block = Wire.dict(content.get(i));
            String type = Wire.str(Wire.at(block, "type"));
            if ("text".equals(type)) {
                String t = Wire.str(block.get("text"));
                if (t != null) (text == null ? text = new StringBuilder() : text).append(t);
            } else if ("tool_use".equals(type)) {
                String id = Wire.str(block.get("id"));
                if (id == null || id.isEmpty()) id = "toolu_missing_" + i;
                calls.add(Wire.fromArgumentValue(id, Wire.str(block.get("name")), block.get("input")));
            }
        }
        PyDict usage = Wire.dict(root.get("usage"));
        long read = Wire.count(usage, "cache_read_input_tokens"),
                written = Wire.count(usage, "cache_creation_input_tokens");
        long input = Wire.count(usage, "input_tokens") + read + written;
        return new Message.Assistant(
                text == null ? null : text.toString(),
                calls,
                new Usage(input, Wire.count(usage, "output_tokens"), read, written));
    }

    // ---- the server's side ----

    /**
     * Reads a Messages request back into Brokkr messages: {@code system} first, text blocks as user or
     * assistant text, {@code tool_use} blocks as calls, {@code tool_result} blocks as tool messages
     * (named after the call they answer). Consecutive text blocks of one user message stay separate
     * user messages. Throws {@link IllegalArgumentException} for a body that is not such a request.
     */
    public static DecodedRequest decodeRequest(String body) {
        PyDict root;
        try {
            root = OpenAiChat.parseObject(body);
        } catch (MalformedResponse e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        PyList msgs = Wire.list(root.get("messages"));
        if (msgs == null) throw new IllegalArgumentException("request has no messages array");
        List<Message> history = new ArrayList<>();
        String system = blocksText(root.get("system"));
        if (system != null) history.add(new Message.System(system));
        Map<String, String> callNames = new HashMap<>();
        for (Value mv : msgs) {
            PyDict m = Wire.dict(mv);
            String role = Wire.str(Wire.at(m, "role"));
            Value content = Wire.at(m, "content");
            if ("assistant".equals(role)) {
                StringBuilder text = null;
                List<ToolCall> calls = new ArrayList<>();
                for (PyDict block : blocks(content)) {
                    String type = Wire.str(block.get("type"));
                    if ("text".equals(type))
                        (text == null ? text = new StringBuilder() : text).append(Wire.str(block.get("text")));
                    else if ("tool_use".equals(type)) {
                        ToolCall c = Wire.fromArgumentValue(
                                Wire.str(block.get("id")), Wire.str(block.get("name")), block.get("input"));
                        callNames.put(c.id(), c.name());
                        calls.add(c);
                    }
                }
                history.add(new Message.Assistant(text == null ? null : text.toString(), calls));
            } else if ("user".equals(role)) {
                for (PyDict block : blocks(content)) {
                    String type = Wire.str(block.get("type"));
                    if ("text".equals(type)) history.add(new Message.User(Wire.str(block.get("text"))));
                    else if ("tool_result".equals(type)) {
                        String id = Wire.str(block.get("tool_use_id"));
                        history.add(new Message.Tool(
                                id,
                                callNames.get(id),
                                blocksText(block.get("content")),
                                block.get("is_error") instanceof PyBool b && b.value()));
                    }
                }
            } else {
                throw new IllegalArgumentException("message with role " + role);
            }
        }
        List<ToolSpec> tools = new ArrayList<>();
        if (root.get("tools") instanceof PyList list) {
            for (Value tv : list) {
                PyDict t = Wire.dict(tv);
                if (t == null) throw new IllegalArgumentException("tool is not an object");
                tools.add(new ToolSpec(
                        Wire.str(t.get("name")), Wire.str(t.get("description")), Wire.dict(t.get("input_schema"))));
            }
        }
        return new DecodedRequest(Wire.str(root.get("model")), history, tools, root);
    }

    /** Content in either form as a list of blocks: a string is one text block. */
    private static List<PyDict> blocks(Value content) {
        if (content instanceof PyStr s) return List.of(PyDict.of("type", "text", "text", s.value()));
        List<PyDict> out = new ArrayList<>();
        if (content instanceof PyList list) for (Value v : list) if (v instanceof PyDict d) out.add(d);
        return out;
    }

    /** The text of a string or of a list of text blocks; null when absent. */
    private static String blocksText(Value v) {
        if (v == null || v.isNone()) return null;
        StringBuilder sb = new StringBuilder();
        for (PyDict b : blocks(v)) if (Wire.str(b.get("text")) != null) sb.append(Wire.str(b.get("text")));
        return sb.toString();
    }

    /**
     * A Messages response carrying {@code m}, shaped like Anthropic's documented example
     * ({@code stop_reason} {@code "tool_use"} when there are calls). The API has no argument text, so a
     * call's {@code rawArguments} are used only when they parse as JSON (a script can send a non-object
     * {@code input} on purpose); otherwise its arguments object is sent.
     */
    public static PyDict encodeResponse(Message.Assistant m, String model, String id) {
        List<Value> content = new ArrayList<>();
        if (m.content() != null && !m.content().isEmpty()) content.add(text(m.content()));
        for (ToolCall c : m.toolCalls()) {
            Value input = c.arguments();
            if (c.rawArguments() != null) {
                try {
                    input = brokkr.value.Json.parse(c.rawArguments());
                } catch (brokkr.value.Json.JsonFormatException notJson) {
                    // keep the arguments object
                }
            }
            content.add(PyDict.of("type", "tool_use", "id", c.id(), "name", c.name(), "input", input));
        }
        Usage u = m.usage() == null ? Usage.ZERO : m.usage();
        return PyDict.of(
                "id",
                id,
                "type",
                "message",
                "role",
                "assistant",
                "model",
                model,
                "content",
                PyList.of(content),
                "stop_reason",
                m.hasToolCalls() ? "tool_use" : "end_turn",
                "stop_sequence",
                null,
                "usage",
                usage(u));
    }

    /** Usage as the Messages API reports it: {@code input_tokens} without the cache's reads and writes. */
    private static PyDict usage(Usage u) {
        PyDict.Builder b = PyDict.builder().put("input_tokens", u.uncachedInputTokens());
        if (u.cached())
            b.put("cache_creation_input_tokens", u.cacheWriteTokens())
                    .put("cache_read_input_tokens", u.cacheReadTokens());
        return b.put("output_tokens", u.outputTokens()).build();
    }

    @Override
    public String toString() {
        return "AnthropicMessages";
    }
}
