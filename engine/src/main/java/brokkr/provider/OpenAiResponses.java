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
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The OpenAI Responses API ({@code POST {base}/responses}): the item-based successor of Chat Completions, through
 * which OpenAI serves its reasoning models first.
 *
 * <p>Request: {@code model}, {@code input} (one item per message: {@code {"type": "message", "role", "content"}} for
 * system, user and assistant text; an assistant's tool calls as {@code {"type": "function_call", "call_id", "name",
 * "arguments"}} items, preceded by the turn's {@linkplain Message.Assistant#reasoning() reasoning items} exactly as
 * the server returned them; a tool result as {@code {"type": "function_call_output", "call_id", "output"}}), then
 * {@code tools} as {@code {"type": "function", "name", "description", "parameters", "strict"}} ({@code strict} is
 * the model option {@code strict_tools}, default false: the API's own default is true, which refuses every schema
 * that is not in its strict subset, and benchmarks' schemas are upstream's), {@code parallel_tool_calls} (only with
 * tools), {@code reasoning: {"effort", "summary"}} (model options {@code reasoning_effort},
 * {@code reasoning_summary}), {@code include: ["reasoning.encrypted_content"]} and {@code store: false} (nothing is
 * kept on the server; the encrypted reasoning comes back to be sent again, so that each request says everything the
 * model sees and a recorded request can be replayed), {@code temperature}, {@code max_output_tokens}
 * ({@link ProviderOptions#maxTokens()}), then the other {@link ProviderOptions#extra()} fields ({@code stream},
 * {@code top_p}, ...) minus {@link #OWN_OPTIONS}. A malformed call in the history is sent back as {@code "{}"}, as
 * on the chat wire.
 *
 * <p>Response: either one JSON response object or, with {@code stream: true}, its server-sent events. Both are
 * read by {@link #decodeResponse}, so the recorded response body is the raw stream as it arrived (under the same
 * {@link ProviderOptions#maxResponseBytes() cap} and per-attempt timeout as any body) and a cached stream replays as
 * it was decoded. Of a stream, the items of {@code response.output_item.done} events (by {@code output_index}) make
 * the output, and the terminal {@code response.completed} (or {@code response.incomplete}) event's response gives
 * the usage (and the output, if no item event came); a stream that ends without one, {@code response.failed} and an
 * {@code error} event are {@link MalformedResponse}s (retried, then an infrastructure failure); deltas are not
 * read, since each item's {@code done} event repeats it whole. Output items: {@code reasoning} items are kept whole
 * on the message, {@code message} items' {@code output_text} (and {@code refusal}) parts are the text,
 * {@code function_call} items are the tool calls (id: {@code call_id}, the id their outputs answer; arguments a JSON
 * string), others (built-in tools) ignored. Usage: {@code input_tokens} with {@code input_tokens_details
 * .cached_tokens} as cache reads, {@code output_tokens} with {@code output_tokens_details.reasoning_tokens}.
 *
 * <p>The static {@link #decodeRequest}, {@link #encodeResponse} and {@link #encodeStream} are the server's side,
 * used by {@link brokkr.provider.testing.ScriptedModelServer}.
 */
public final class OpenAiResponses implements WireFormat {
    public static final String NAME = "openai-responses";
    public static final OpenAiResponses INSTANCE = new OpenAiResponses();

    /** Model options this wire reads itself rather than sending them as top-level request fields. */
    public static final List<String> OWN_OPTIONS = List.of("reasoning_effort", "reasoning_summary", "strict_tools");

    /** What {@code include} asks for: the reasoning items' encrypted content, to be carried to the next step. */
    public static final String ENCRYPTED_REASONING = "reasoning.encrypted_content";

    private OpenAiResponses() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public URI endpoint(String baseUrl) {
        return URI.create(OpenAiChat.stripSlash(baseUrl) + "/responses");
    }

    @Override
    public Map<String, String> headers(Secret key) {
        return OpenAiChat.INSTANCE.headers(key); // the same bearer token as chat completions
    }

    @Override
    public String encodeRequest(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        return Wire.json(request(history, tools, o));
    }

    /** The request as a value, in the order it is serialized. */
    public static PyDict request(List<Message> history, List<ToolSpec> tools, ProviderOptions o) {
        PyDict extra = o.extra();
        PyDict.Builder b = PyDict.builder();
        b.put("model", new PyStr(o.model()));
        List<Value> input = new ArrayList<>();
        for (Message m : history) items(m, input);
        b.put("input", PyList.of(input));
        if (!tools.isEmpty()) {
            boolean strict = extra.get("strict_tools") instanceof PyBool s && s.value();
            b.put("tools", PyList.of(tools.stream().map(t -> tool(t, strict)).toList()));
            if (o.parallelToolCalls() != null) b.put("parallel_tool_calls", PyBool.of(o.parallelToolCalls()));
        }
        PyDict.Builder reasoning = PyDict.builder();
        if (extra.get("reasoning_effort") != null) reasoning.put("effort", extra.get("reasoning_effort"));
        if (extra.get("reasoning_summary") != null) reasoning.put("summary", extra.get("reasoning_summary"));
        PyDict r = reasoning.build();
        if (!r.isEmpty()) b.put("reasoning", r);
        b.put("include", PyList.of(new PyStr(ENCRYPTED_REASONING)));
        b.put("store", PyBool.FALSE);
        if (o.temperature() != null) b.put("temperature", new PyFloat(o.temperature()));
        if (o.maxTokens() != null) b.put("max_output_tokens", PyInt.of(o.maxTokens()));
        for (var e : extra.entries()) if (!OWN_OPTIONS.contains(e.getKey())) b.put(e.getKey(), e.getValue());
        return b.build();
    }

    private static void items(Message m, List<Value> out) {
        switch (m) {
            case Message.System s -> out.add(message("system", s.content()));
            // As on the chat wire: a simulated user's own tool calls are not the agent's to see.
            case Message.User u -> out.add(message("user", u.content()));
            case Message.Assistant a -> {
                out.addAll(a.reasoning());
                if (a.content() != null && !a.content().isEmpty()) out.add(message("assistant", a.content()));
                for (ToolCall c : a.toolCalls())
                    out.add(PyDict.of(
                            "type",
                            "function_call",
                            "call_id",
                            c.id(),
                            "name",
                            c.name(),
                            "arguments",
                            Wire.json(c.arguments())));
            }
            case Message.Tool t ->
                out.add(PyDict.of(
                        "type",
                        "function_call_output",
                        "call_id",
                        t.toolCallId(),
                        "output",
                        t.content() == null ? "" : t.content()));
        }
    }

    private static Value message(String role, String content) {
        return PyDict.of("type", "message", "role", role, "content", content == null ? "" : content);
    }

    private static Value tool(ToolSpec t, boolean strict) {
        PyDict.Builder b = PyDict.builder().put("type", new PyStr("function")).put("name", new PyStr(t.name()));
        if (t.description() != null) b.put("description", new PyStr(t.description()));
        b.put(
                "parameters",
                t.parameters() == null ? PyDict.of("type", "object", "properties", PyDict.empty()) : t.parameters());
        b.put("strict", PyBool.of(strict));
        return b.build();
    }

    @Override
    public Message.Assistant decodeResponse(String body) throws MalformedResponse {
        PyDict root = isStream(body) ? assemble(body) : OpenAiChat.parseObject(body);
        if ("failed".equals(Wire.str(root.get("status"))))
            throw new MalformedResponse("response failed: " + Wire.clip(Wire.json(root.get("error")), 300));
        PyList output = Wire.list(root.get("output"));
        if (output == null) {
            Value error = root.get("error");
            if (error != null && !error.isNone())
                throw new MalformedResponse("error object instead of output: " + Wire.clip(Wire.json(error), 300));
            throw new MalformedResponse("no output array in the response");
        }
        StringBuilder text = null;
        List<ToolCall> calls = new ArrayList<>();
        List<PyDict> reasoning = new ArrayList<>();
        for (int i = 0; i < output.size(); i++) {
            PyDict item = Wire.dict(output.get(i));
            String type = Wire.str(Wire.at(item, "type"));
            if (type == null) continue;
            switch (type) {
                case "reasoning" -> reasoning.add(item);
                case "message" -> {
                    if (item.get("content") instanceof PyList parts) {
                        for (Value p : parts) {
                            PyDict part = Wire.dict(p);
                            String t = switch (String.valueOf(Wire.str(Wire.at(part, "type")))) {
                                case "output_text" -> Wire.str(part.get("text"));
                                case "refusal" -> Wire.str(part.get("refusal"));
                                default -> null;
                            };
                            if (t != null) (text == null ? text = new StringBuilder() : text).append(t);
                        }
                    } else if (Wire.str(item.get("content")) != null) {
                        (text == null ? text = new StringBuilder() : text).append(Wire.str(item.get("content")));
                    }
                }
                case "function_call" -> calls.add(functionCall(item, i));
                default -> {} // built-in tools' items (web search, ...): no tool of Brokkr's answers them
            }
        }
        return new Message.Assistant(text == null ? null : text.toString(), calls, usage(root), reasoning);
    }

    private static ToolCall functionCall(PyDict item, int index) {
        String id = Wire.str(item.get("call_id"));
        if (id == null || id.isEmpty()) id = Wire.str(item.get("id"));
        if (id == null || id.isEmpty()) id = "call_missing_" + index;
        String name = Wire.str(item.get("name"));
        Value args = item.get("arguments");
        if (args instanceof PyStr s) return Wire.fromArgumentText(id, name, s.value());
        if (args == null || args.isNone()) return Wire.fromArgumentText(id, name, null);
        return Wire.fromArgumentValue(id, name, args);
    }

    private static Usage usage(PyDict root) {
        PyDict usage = Wire.dict(root.get("usage"));
        long input = Wire.count(usage, "input_tokens"), output = Wire.count(usage, "output_tokens");
        // Cached and reasoning tokens are parts of input and output; a server reporting more is read as all of them.
        long cached = Math.min(input, Wire.count(Wire.dict(Wire.at(usage, "input_tokens_details")), "cached_tokens"));
        long reasoning =
                Math.min(output, Wire.count(Wire.dict(Wire.at(usage, "output_tokens_details")), "reasoning_tokens"));
        return new Usage(input, output, cached, 0, reasoning);
    }

    @Override
    public String refusalHint(int status, String responseBody, ProviderOptions o) {
        if (status != 400 || responseBody == null) return null;
        List<String> asked = new ArrayList<>();
        if (o.parallelToolCalls() != null && responseBody.contains("parallel_tool_calls"))
            asked.add("parallel_tool_calls=" + o.parallelToolCalls());
        if (o.extra().get("reasoning_effort") != null
                && (responseBody.contains("reasoning.effort")
                        || responseBody.contains("reasoning_effort")
                        || responseBody.contains("\"param\": \"reasoning\"")))
            asked.add("reasoning_effort=" + Wire.json(o.extra().get("reasoning_effort")));
        if (o.extra().get("strict_tools") != null && responseBody.contains("strict"))
            asked.add("strict_tools=" + Wire.json(o.extra().get("strict_tools")));
        if (asked.isEmpty()) return null;
        return "the server refused what the model options asked (" + String.join(", ", asked)
                + "): drop or change that model option for this backend; the request is not re-sent without it";
    }

    // ---- server-sent events ----

    /** Whether a body is an event stream rather than one JSON object: its first non-blank line is an SSE field. */
    static boolean isStream(String body) {
        if (body == null) return false;
        String s = body.stripLeading();
        return s.startsWith("event:") || s.startsWith("data:") || s.startsWith(":");
    }

    /**
     * A stream's events assembled into the response object they describe: the terminal event's response with the
     * {@code output_item.done} items as its output (when there were any).
     */
    static PyDict assemble(String body) throws MalformedResponse {
        TreeMap<Long, Value> items = new TreeMap<>();
        PyDict terminal = null;
        int events = 0;
        for (String data : events(body)) {
            if (data.equals("[DONE]")) continue;
            PyDict e;
            try {
                e = Json.parse(data) instanceof PyDict d ? d : null;
            } catch (Json.JsonFormatException bad) {
                throw new MalformedResponse("stream event " + (events + 1) + " is not JSON: " + Wire.clip(data, 200));
            }
            if (e == null) throw new MalformedResponse("stream event " + (events + 1) + " is not a JSON object");
            events++;
            String type = String.valueOf(Wire.str(e.get("type")));
            switch (type) {
                case "response.output_item.done" -> {
                    long index = e.get("output_index") instanceof PyInt i && i.fitsLong()
                            ? i.longValue()
                            : items.isEmpty() ? 0 : items.lastKey() + 1;
                    items.put(index, e.get("item"));
                }
                case "response.completed", "response.incomplete" -> terminal = Wire.dict(e.get("response"));
                case "response.failed" ->
                    throw new MalformedResponse("stream reported response.failed: "
                            + Wire.clip(Wire.json(Wire.at(Wire.dict(e.get("response")), "error")), 300));
                case "error" -> throw new MalformedResponse("stream error event: " + Wire.clip(data, 300));
                default -> {} // created, in_progress, deltas, content parts: repeated whole by the events above
            }
        }
        if (terminal == null)
            throw new MalformedResponse("stream ended after " + events + " events without response.completed");
        return items.isEmpty() ? terminal : terminal.with("output", PyList.of(new ArrayList<>(items.values())));
    }

    /** The data of each event of an SSE text (its {@code data:} lines joined by newlines), in order. */
    private static List<String> events(String body) {
        List<String> out = new ArrayList<>();
        StringBuilder data = null;
        for (String line : body.split("\r\n|\r|\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) out.add(data.toString());
                data = null;
            } else if (line.startsWith("data:")) {
                String v = line.substring(5);
                if (v.startsWith(" ")) v = v.substring(1);
                if (data == null) data = new StringBuilder(v);
                else data.append('\n').append(v);
            }
            // event:, id:, retry: and comments carry nothing the data does not (each event's JSON names its type).
        }
        if (data != null) out.add(data.toString());
        return out;
    }

    // ---- the server's side ----

    /**
     * Reads a Responses request back into Brokkr messages (the inverse of {@link #request}): {@code instructions}
     * and system/developer messages as system messages, each assistant turn made of the reasoning items, assistant
     * text and function calls that follow one another (a reasoning item after text or calls, or a second text,
     * starts the next turn), {@code function_call_output} items as tool messages named after the call they answer.
     * Throws {@link IllegalArgumentException} for a body that is not such a request.
     */
    public static DecodedRequest decodeRequest(String body) {
        PyDict root;
        try {
            root = OpenAiChat.parseObject(body);
        } catch (MalformedResponse e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        List<Message> history = new ArrayList<>();
        if (Wire.str(root.get("instructions")) != null)
            history.add(new Message.System(Wire.str(root.get("instructions"))));
        Value input = root.get("input");
        if (input instanceof PyStr s) history.add(new Message.User(s.value()));
        else if (input instanceof PyList list) {
            Map<String, String> callNames = new java.util.HashMap<>();
            Turn turn = null;
            for (Value v : list) {
                PyDict item = Wire.dict(v);
                if (item == null) throw new IllegalArgumentException("input item is not an object: " + Wire.json(v));
                String type = Wire.str(item.get("type"));
                String role = Wire.str(item.get("role"));
                if (type == null && role != null) type = "message";
                if (type == null)
                    throw new IllegalArgumentException("input item without a type: " + Wire.clip(Wire.json(v), 200));
                switch (type) {
                    case "reasoning" -> {
                        if (turn == null || turn.text != null || !turn.calls.isEmpty()) turn = flush(turn, history);
                        turn.reasoning.add(item);
                    }
                    case "function_call" -> {
                        if (turn == null) turn = new Turn();
                        ToolCall c = functionCall(item, turn.calls.size());
                        callNames.put(c.id(), c.name());
                        turn.calls.add(c);
                    }
                    case "function_call_output" -> {
                        turn = flushed(turn, history);
                        String id = Wire.str(item.get("call_id"));
                        history.add(new Message.Tool(id, callNames.get(id), outputText(item.get("output")), false));
                    }
                    case "message" -> {
                        String text = outputText(item.get("content"));
                        switch (String.valueOf(role)) {
                            case "assistant" -> {
                                if (turn == null || turn.text != null || !turn.calls.isEmpty())
                                    turn = flush(turn, history);
                                turn.text = text;
                            }
                            case "system", "developer" -> {
                                turn = flushed(turn, history);
                                history.add(new Message.System(text));
                            }
                            case "user" -> {
                                turn = flushed(turn, history);
                                history.add(new Message.User(text));
                            }
                            default -> throw new IllegalArgumentException("message with role " + role);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown input item type " + type);
                }
            }
            flushed(turn, history);
        } else throw new IllegalArgumentException("request has no input");
        List<ToolSpec> tools = new ArrayList<>();
        if (root.get("tools") instanceof PyList list) {
            for (Value tv : list) {
                PyDict t = Wire.dict(tv);
                if (t == null || !"function".equals(Wire.str(t.get("type"))))
                    throw new IllegalArgumentException("tool is not a function tool: " + Wire.clip(Wire.json(tv), 200));
                tools.add(new ToolSpec(
                        Wire.str(t.get("name")), Wire.str(t.get("description")), Wire.dict(t.get("parameters"))));
            }
        }
        return new DecodedRequest(Wire.str(root.get("model")), history, tools, root);
    }

    /** An assistant turn being read back from input items. */
    private static final class Turn {
        String text;
        final List<ToolCall> calls = new ArrayList<>();
        final List<PyDict> reasoning = new ArrayList<>();
    }

    /** Ends {@code turn} (if any) into {@code history} and starts a new one. */
    private static Turn flush(Turn turn, List<Message> history) {
        flushed(turn, history);
        return new Turn();
    }

    /** Ends {@code turn} (if any) into {@code history}; no turn is under way after it. */
    private static Turn flushed(Turn turn, List<Message> history) {
        if (turn != null) history.add(new Message.Assistant(turn.text, turn.calls, Usage.ZERO, turn.reasoning));
        return null;
    }

    /** A message's content (a string or input/output text parts) or a function call's output, as text. */
    private static String outputText(Value v) {
        if (v == null || v.isNone()) return null;
        if (v instanceof PyStr s) return s.value();
        if (v instanceof PyList parts) {
            StringBuilder sb = new StringBuilder();
            for (Value p : parts) {
                PyDict d = Wire.dict(p);
                if (d != null && Wire.str(d.get("text")) != null) sb.append(Wire.str(d.get("text")));
            }
            return sb.toString();
        }
        throw new IllegalArgumentException("content is a JSON " + Wire.jsonType(v));
    }

    /** The output items carrying {@code m}: its reasoning items, a message with its text, one function call per call. */
    private static List<Value> outputItems(Message.Assistant m, String id) {
        List<Value> out = new ArrayList<>(m.reasoning());
        if (m.content() != null && !m.content().isEmpty())
            out.add(PyDict.of(
                    "type",
                    "message",
                    "id",
                    "msg_" + id,
                    "status",
                    "completed",
                    "role",
                    "assistant",
                    "content",
                    PyList.of(PyDict.of("type", "output_text", "text", m.content(), "annotations", PyList.empty()))));
        for (int i = 0; i < m.toolCalls().size(); i++) {
            ToolCall c = m.toolCalls().get(i);
            out.add(PyDict.of(
                    "type",
                    "function_call",
                    "id",
                    "fc_" + id + "_" + i,
                    "call_id",
                    c.id(),
                    "name",
                    c.name(),
                    "arguments",
                    c.rawArguments() != null ? c.rawArguments() : Wire.json(c.arguments()),
                    "status",
                    "completed"));
        }
        return out;
    }

    /**
     * A Responses response object carrying {@code m}, shaped like OpenAI's documented example; a call's arguments
     * are its {@code rawArguments} when it has them (so a script can emit malformed arguments on purpose).
     */
    public static PyDict encodeResponse(Message.Assistant m, String model, String id) {
        return response(id, model, "completed", outputItems(m, id), m.usage() == null ? Usage.ZERO : m.usage());
    }

    private static PyDict response(String id, String model, String status, List<Value> output, Usage u) {
        return PyDict.of(
                "id",
                id,
                "object",
                "response",
                "created_at",
                0,
                "status",
                status,
                "model",
                model,
                "output",
                PyList.of(output),
                "usage",
                PyDict.of(
                        "input_tokens",
                        u.inputTokens(),
                        "input_tokens_details",
                        PyDict.of("cached_tokens", u.cacheReadTokens()),
                        "output_tokens",
                        u.outputTokens(),
                        "output_tokens_details",
                        PyDict.of("reasoning_tokens", u.reasoningTokens()),
                        "total_tokens",
                        u.inputTokens() + u.outputTokens()));
    }

    /**
     * The same response as server-sent events, in the order OpenAI sends them: {@code response.created}, then per
     * output item {@code response.output_item.added}, its deltas ({@code response.output_text.delta},
     * {@code response.function_call_arguments.delta}) and {@code response.output_item.done}, then
     * {@code response.completed} with the whole response.
     */
    public static String encodeStream(Message.Assistant m, String model, String id) {
        List<Value> items = outputItems(m, id);
        StringBuilder sb = new StringBuilder();
        int[] seq = {0};
        Usage u = m.usage() == null ? Usage.ZERO : m.usage();
        event(sb, seq, "response.created", "response", response(id, model, "in_progress", List.of(), Usage.ZERO));
        for (int i = 0; i < items.size(); i++) {
            PyDict item = (PyDict) items.get(i);
            event(sb, seq, "response.output_item.added", "output_index", i, "item", item);
            String type = Wire.str(item.get("type"));
            if ("message".equals(type))
                event(
                        sb,
                        seq,
                        "response.output_text.delta",
                        "output_index",
                        i,
                        "content_index",
                        0,
                        "delta",
                        m.content());
            else if ("function_call".equals(type))
                event(
                        sb,
                        seq,
                        "response.function_call_arguments.delta",
                        "output_index",
                        i,
                        "delta",
                        item.get("arguments"));
            event(sb, seq, "response.output_item.done", "output_index", i, "item", item);
        }
        event(sb, seq, "response.completed", "response", response(id, model, "completed", items, u));
        return sb.toString();
    }

    private static void event(StringBuilder sb, int[] seq, String type, Object... fields) {
        Object[] kv = new Object[fields.length + 4];
        kv[0] = "type";
        kv[1] = type;
        System.arraycopy(fields, 0, kv, 2, fields.length);
        kv[kv.length - 2] = "sequence_number";
        kv[kv.length - 1] = seq[0]++;
        sb.append("event: ").append(type).append('\n');
        sb.append("data: ").append(Wire.json(PyDict.of(kv))).append("\n\n");
    }

    @Override
    public String toString() {
        return "OpenAiResponses";
    }
}
