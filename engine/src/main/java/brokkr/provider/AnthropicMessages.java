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
 * (the API requires every result of a parallel turn in the user message that follows it). An assistant
 * message with neither text nor calls is left out: the API rejects empty content.
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

    @Override public String name() { return "anthropic"; }

    @Override public URI endpoint(String baseUrl) {
        String b = OpenAiChat.stripSlash(baseUrl);
        // ANTHROPIC_BASE_URL is the host root for Anthropic's SDKs; accept a base that already ends in /v1.
        return URI.create(b.endsWith("/v1") ? b + "/messages" : b + "/v1/messages");
    }

    @Override public Map<String, String> headers(Secret key) {
        Map<String, String> h = new LinkedHashMap<>();
        if (key.isPresent()) h.put("x-api-key", key.reveal());
        h.put("anthropic-version", API_VERSION);
        return h;
    }

    @Override public String encodeRequest(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        return Wire.json(request(history, tools, o));
    }

    public static PyDict request(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        PyDict.Builder b = PyDict.builder();
        b.put("model", new PyStr(o.model()));
        b.put("max_tokens", PyInt.of(o.maxTokens() != null ? o.maxTokens() : ProviderOptions.ANTHROPIC_DEFAULT_MAX_TOKENS));
        List<String> system = history.stream().filter(m -> m instanceof Message.System && m.content() != null)
                .map(Message::content).toList();
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

    private static List<Value> messages(List<Message> history) {
        List<Value> out = new ArrayList<>();
        List<Value> pendingResults = new ArrayList<>();
        for (Message m : history) {
            if (m instanceof Message.Tool t) {
                PyDict.Builder r = PyDict.builder().put("type", new PyStr("tool_result"))
                        .put("tool_use_id", new PyStr(t.toolCallId()))
                        .put("content", new PyStr(t.content() == null ? "" : t.content()));
                if (t.error()) r.put("is_error", PyBool.TRUE);
                pendingResults.add(r.build());
                continue;
            }
            if (!pendingResults.isEmpty()) {
                out.add(PyDict.of("role", "user", "content", PyList.of(pendingResults)));
                pendingResults.clear();
            }
            switch (m) {
                case Message.System s -> { }
                case Message.User u -> out.add(PyDict.of("role", "user", "content", u.content() == null ? "" : u.content()));
                case Message.Assistant a -> {
                    List<Value> blocks = new ArrayList<>();
                    boolean hasText = a.content() != null && !a.content().isEmpty();
                    if (!a.hasToolCalls()) {
                        if (hasText) out.add(PyDict.of("role", "assistant", "content", a.content()));
                        continue;
                    }
                    if (hasText) blocks.add(PyDict.of("type", "text", "text", a.content()));
                    for (ToolCall c : a.toolCalls()) {
                        blocks.add(PyDict.of("type", "tool_use", "id", c.id(), "name", c.name(), "input", c.arguments()));
                    }
                    out.add(PyDict.of("role", "assistant", "content", PyList.of(blocks)));
                }
                case Message.Tool t -> throw new AssertionError("handled above");
            }
        }
        if (!pendingResults.isEmpty()) out.add(PyDict.of("role", "user", "content", PyList.of(pendingResults)));
        return out;
    }

    private static Value tool(ToolSpec t) {
        PyDict.Builder b = PyDict.builder().put("name", new PyStr(t.name()));
        if (t.description() != null) b.put("description", new PyStr(t.description()));
        b.put("input_schema", t.parameters() == null ? PyDict.of("type", "object", "properties", PyDict.empty()) : t.parameters());
        return b.build();
    }

    @Override public Message.Assistant decodeResponse(String body) throws MalformedResponse {
        PyDict root = OpenAiChat.parseObject(body);
        PyList content = Wire.list(root.get("content"));
        if (content == null) {
            if (root.get("error") != null) throw new MalformedResponse("error object instead of content: " + Wire.clip(Wire.json(root.get("error")), 300));
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
        long input = Wire.count(usage, "input_tokens") + Wire.count(usage, "cache_read_input_tokens")
                + Wire.count(usage, "cache_creation_input_tokens");
        return new Message.Assistant(text == null ? null : text.toString(), calls, new Usage(input, Wire.count(usage, "output_tokens")));
    }

    @Override public String toString() { return "AnthropicMessages"; }
}
