package brokkr.eval;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Messages as portable transcript data, in the OpenAI chat shape that {@code Inspect} prints:
 * {@code {"role", "content", "tool_calls": [{"id", "name", "arguments", "raw_arguments"?, "malformed"?}]}}
 * for system/user/assistant, {@code {"role": "tool", "tool_call_id", "name", "content", "error"}} for
 * tool results. Assistant messages keep their usage and, when the provider returned any, their {@code reasoning}
 * items (as the wire gave them); nothing is dropped that a grader could need.
 * {@link #fromValue} reads the shape back, also from transcripts that add fields of their own.
 */
public final class Transcripts {
    private Transcripts() {}

    public static PyList toValue(List<Message> messages) {
        List<Value> out = new ArrayList<>(messages.size());
        for (Message m : messages) out.add(toValue(m));
        return PyList.of(out);
    }

    public static PyDict toValue(Message m) {
        PyDict.Builder b = PyDict.builder();
        switch (m) {
            case Message.System s -> b.put("role", "system").put("content", text(s.content()));
            case Message.User u -> {
                b.put("role", "user").put("content", text(u.content()));
                if (!u.toolCalls().isEmpty()) b.put("tool_calls", calls(u.toolCalls()));
            }
            case Message.Assistant a -> {
                b.put("role", "assistant").put("content", text(a.content())).put("tool_calls", calls(a.toolCalls()));
                if (a.usage() != null) b.put("usage", Evidence.usageValue(a.usage()));
                if (!a.reasoning().isEmpty()) b.put("reasoning", PyList.of(a.reasoning()));
            }
            case Message.Tool t ->
                b.put("role", "tool")
                        .put("tool_call_id", text(t.toolCallId()))
                        .put("name", text(t.name()))
                        .put("content", text(t.content()))
                        .put("error", PyBool.of(t.error()));
        }
        return b.build();
    }

    private static PyList calls(List<ToolCall> calls) {
        List<Value> out = new ArrayList<>(calls.size());
        for (ToolCall c : calls) {
            PyDict.Builder b = PyDict.builder()
                    .put("id", text(c.id()))
                    .put("name", text(c.name()))
                    .put("arguments", c.arguments());
            if (c.rawArguments() != null) b.put("raw_arguments", c.rawArguments());
            if (c.malformed() != null) b.put("malformed", c.malformed());
            out.add(b.build());
        }
        return PyList.of(out);
    }

    /** The messages of a transcript value, as {@link #toValue} writes them; fields it does not write are ignored. */
    public static List<Message> fromValue(Value transcript) {
        List<Message> out = new ArrayList<>();
        for (Value v : transcript.asList()) {
            PyDict d = v.asDict();
            String role = d.get("role").asStr();
            String content = str(d.get("content"));
            out.add(
                    switch (role) {
                        case "system" -> new Message.System(content);
                        case "user" -> new Message.User(content, calls(d.get("tool_calls")));
                        case "assistant" ->
                            new Message.Assistant(
                                    content, calls(d.get("tool_calls")), usage(d.get("usage")), reasoning(d));
                        case "tool" ->
                            new Message.Tool(
                                    str(d.get("tool_call_id")),
                                    str(d.get("name")),
                                    content,
                                    d.get("error") instanceof PyBool b && b.value());
                        default -> throw new IllegalArgumentException("not a transcript message role: " + role);
                    });
        }
        return out;
    }

    private static List<ToolCall> calls(Value v) {
        if (v == null || v.isNone()) return List.of();
        List<ToolCall> out = new ArrayList<>();
        for (Value cv : v.asList()) {
            PyDict c = cv.asDict();
            Value args = c.get("arguments");
            out.add(new ToolCall(
                    str(c.get("id")),
                    c.get("name").asStr(),
                    args instanceof PyDict a ? a : PyDict.empty(),
                    str(c.get("raw_arguments")),
                    str(c.get("malformed"))));
        }
        return out;
    }

    private static List<PyDict> reasoning(PyDict message) {
        if (!(message.get("reasoning") instanceof PyList l)) return List.of();
        List<PyDict> out = new ArrayList<>(l.size());
        for (Value v : l) if (v instanceof PyDict d) out.add(d);
        return out;
    }

    private static Usage usage(Value v) {
        return v instanceof PyDict u ? Evidence.usageFrom(u) : null;
    }

    private static Value text(String s) {
        return s == null ? PyNone.NONE : Value.str(s);
    }

    private static String str(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }
}
