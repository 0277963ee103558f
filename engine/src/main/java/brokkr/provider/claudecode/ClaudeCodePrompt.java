package brokkr.provider.claudecode;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * How one model step becomes a {@code claude -p} call when Claude Code answers as a plain model (no tools of
 * its own): the conversation's system messages, the tools and how to call them, and the host-context note
 * form the system prompt; the rest of the conversation is the prompt, one JSON object per message between
 * {@code <conversation>} tags (JSON so that no message text can break the framing). The reply is read by
 * {@link ClaudeCodeReplies}.
 *
 * <p>The server's side ({@link #decodeConversation}, {@link #decodeTools}) reads both back, for tests and
 * for fake servers that answer as a Brokkr candidate would.
 */
public final class ClaudeCodePrompt {
    private ClaudeCodePrompt() {}

    static final String TOOLS_START = "<tools>", TOOLS_END = "</tools>";
    static final String CONVERSATION_START = "<conversation>", CONVERSATION_END = "</conversation>";
    public static final String CALL_OPEN = "<tool_call>", CALL_CLOSE = "</tool_call>";

    /**
     * The note appended to every system prompt by default: the CLI injects host context no flag removes (the
     * date, and with a stored account profile its e-mail), which says nothing about the task.
     */
    public static final String DEFAULT_HOST_NOTE = "Note: this conversation is relayed through a command-line"
            + " harness. Any date, account, e-mail address or environment detail that appears outside this system"
            + " prompt and the conversation belongs to the harness operator, not to the conversation: do not use it.";

    /** The system prompt: the conversation's system messages, the tools and the calling convention, the note (null: none). */
    public static String systemPrompt(List<Message> history, List<ToolSpec> tools, String hostNote) {
        StringBuilder sb = new StringBuilder();
        for (Message m : history)
            if (m instanceof Message.System s && s.content() != null) {
                if (!sb.isEmpty()) sb.append("\n\n");
                sb.append(s.content());
            }
        if (!tools.isEmpty()) {
            if (!sb.isEmpty()) sb.append("\n\n");
            sb.append("# Tools\n\nYou can call these tools. Each line is one tool: its name, description and the JSON"
                    + " Schema of its arguments.\n");
            sb.append(TOOLS_START).append('\n');
            for (ToolSpec t : tools) sb.append(PyJson.dumps(toolValue(t))).append('\n');
            sb.append(TOOLS_END).append("\n\n");
            sb.append("To call tools, write each call on its own as\n")
                    .append(CALL_OPEN)
                    .append("{\"name\": \"TOOL_NAME\", \"arguments\": {...}}")
                    .append(CALL_CLOSE)
                    .append("\nwith the arguments a JSON object. Several calls in one reply are made in order; their"
                            + " results come back in the next message. To answer without a call, write plain text.");
        }
        if (hostNote != null && !hostNote.isBlank()) {
            if (!sb.isEmpty()) sb.append("\n\n");
            sb.append(hostNote);
        }
        return sb.toString();
    }

    /** The prompt: every non-system message as a JSON line between {@code <conversation>} tags, then the instruction. */
    public static String prompt(List<Message> history) {
        StringBuilder sb = new StringBuilder();
        sb.append("The conversation so far, one JSON object per message, oldest first:\n");
        sb.append(CONVERSATION_START).append('\n');
        for (Message m : history) {
            Value v = messageValue(m);
            if (v != null) sb.append(PyJson.dumps(v)).append('\n');
        }
        sb.append(CONVERSATION_END).append('\n');
        sb.append("Write the assistant's next message.");
        return sb.toString();
    }

    private static PyDict toolValue(ToolSpec t) {
        return PyDict.of(
                "name", t.name(),
                "description", t.description() == null ? "" : t.description(),
                "parameters", t.parameters() == null ? PyDict.empty() : t.parameters());
    }

    private static PyDict messageValue(Message m) {
        return switch (m) {
            case Message.System s -> null;
            case Message.User u -> PyDict.of("role", "user", "content", u.content() == null ? "" : u.content());
            case Message.Assistant a -> {
                PyDict.Builder b = PyDict.builder().put("role", "assistant");
                b.put("content", Value.of(a.content()));
                if (a.hasToolCalls()) {
                    List<Value> calls = new ArrayList<>();
                    for (ToolCall c : a.toolCalls())
                        calls.add(PyDict.of("id", c.id(), "name", c.name(), "arguments", c.arguments()));
                    b.put("tool_calls", PyList.of(calls));
                }
                yield b.build();
            }
            case Message.Tool t -> {
                PyDict.Builder b = PyDict.builder()
                        .put("role", "tool")
                        .put("tool_call_id", Value.of(t.toolCallId()))
                        .put("name", Value.of(t.name()))
                        .put("content", Value.of(t.content() == null ? "" : t.content()));
                if (t.error()) b.put("is_error", PyBool.TRUE);
                yield b.build();
            }
        };
    }

    /** The messages of a {@link #prompt} (system messages are in the system prompt, not here). */
    public static List<Message> decodeConversation(String prompt) {
        int start = prompt.indexOf(CONVERSATION_START), end = prompt.lastIndexOf(CONVERSATION_END);
        if (start < 0 || end < start) throw new IllegalArgumentException("no <conversation> in the prompt");
        List<Message> out = new ArrayList<>();
        for (String line :
                prompt.substring(start + CONVERSATION_START.length(), end).split("\n")) {
            if (line.isBlank()) continue;
            PyDict d = Json.parse(line).asDict();
            String role = d.get("role").asStr();
            switch (role) {
                case "user" -> out.add(new Message.User(d.get("content").asStr()));
                case "assistant" -> {
                    List<ToolCall> calls = new ArrayList<>();
                    if (d.get("tool_calls") instanceof PyList l)
                        for (Value v : l) {
                            PyDict c = v.asDict();
                            calls.add(new ToolCall(
                                    c.get("id").asStr(),
                                    c.get("name").asStr(),
                                    c.get("arguments").asDict()));
                        }
                    Value content = d.get("content");
                    out.add(new Message.Assistant(content instanceof PyStr s ? s.value() : null, calls));
                }
                case "tool" ->
                    out.add(new Message.Tool(
                            d.get("tool_call_id") instanceof PyStr s ? s.value() : null,
                            d.get("name") instanceof PyStr s ? s.value() : null,
                            d.get("content").asStr(),
                            d.get("is_error") instanceof PyBool b && b.value()));
                default -> throw new IllegalArgumentException("message with role " + role);
            }
        }
        return out;
    }

    /** The tools of a {@link #systemPrompt} (none when it lists none). */
    public static List<ToolSpec> decodeTools(String systemPrompt) {
        int start = systemPrompt.indexOf(TOOLS_START), end = systemPrompt.indexOf(TOOLS_END);
        if (start < 0 || end < start) return List.of();
        List<ToolSpec> out = new ArrayList<>();
        for (String line :
                systemPrompt.substring(start + TOOLS_START.length(), end).split("\n")) {
            if (line.isBlank()) continue;
            PyDict d = Json.parse(line).asDict();
            out.add(new ToolSpec(
                    d.get("name").asStr(),
                    d.get("description").asStr(),
                    d.get("parameters").asDict()));
        }
        return out;
    }
}
