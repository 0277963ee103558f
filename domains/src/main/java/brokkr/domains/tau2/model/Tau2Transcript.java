package brokkr.domains.tau2.model;

import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * tau2 messages as JSON data and back, losslessly, in upstream's message shape (the field names of
 * {@code src/tau2/data_model/message.py}): the one JSON form of a tau2 trajectory, for an attempt's
 * evidence (what the evaluator grades and verify-world replays), {@code tau2 run --out} and the
 * oracle tests.
 *
 * <pre>
 * {"role": "assistant" | "user", "content", "tool_calls": null | [{"id", "name", "arguments", "requestor"}], "usage"}
 * {"role": "tool", "id", "name", "content", "requestor", "error"}
 * </pre>
 *
 * As upstream, a message without tool calls has {@code tool_calls: null}, and a tool call names the side
 * that made it. Brokkr adds: {@code usage} as {@code {"input_tokens", "output_tokens"}} (upstream keeps
 * litellm's usage dict), a call's {@code raw_arguments} and {@code malformed} when the model's arguments
 * were not a JSON object, and the tool message's {@code name} (upstream's ToolMessage has none; kept so
 * a reader sees which tool answered). {@link #fromValue} also reads the earlier experiment shape
 * ({@code tool_call_id} on tool messages, {@code tool_calls: []}), so stored transcripts still replay.
 */
public final class Tau2Transcript {
    private Tau2Transcript() {}

    public static PyList toValue(List<Tau2Message> trajectory) {
        List<Value> out = new ArrayList<>(trajectory.size());
        for (Tau2Message m : trajectory) out.add(toValue(m));
        return PyList.of(out);
    }

    public static PyDict toValue(Tau2Message m) {
        PyDict.Builder b = PyDict.builder().put("role", m.role());
        switch (m) {
            case Tau2Message.Participant p -> {
                b.put("content", text(p.content()));
                String requestor = (p instanceof Tau2Message.Agent ? Requestor.ASSISTANT : Requestor.USER).wire();
                List<Value> calls = new ArrayList<>();
                for (ToolCall tc : p.toolCalls()) {
                    PyDict.Builder c = PyDict.builder()
                            .put("id", text(tc.id()))
                            .put("name", tc.name())
                            .put("arguments", tc.arguments() == null ? PyDict.empty() : tc.arguments())
                            .put("requestor", requestor);
                    if (tc.rawArguments() != null) c.put("raw_arguments", tc.rawArguments());
                    if (tc.malformed() != null) c.put("malformed", tc.malformed());
                    calls.add(c.build());
                }
                b.put("tool_calls", calls.isEmpty() ? PyNone.NONE : PyList.of(calls));
                b.put(
                        "usage",
                        PyDict.of(
                                "input_tokens",
                                p.usage().inputTokens(),
                                "output_tokens",
                                p.usage().outputTokens()));
            }
            case Tau2Message.ToolResult t ->
                b.put("id", text(t.id()))
                        .put("name", t.name())
                        .put("content", text(t.content()))
                        .put("requestor", t.requestor().wire())
                        .put("error", PyBool.of(t.error()));
        }
        return b.build();
    }

    public static List<Tau2Message> fromValue(Value transcript) {
        List<Tau2Message> out = new ArrayList<>();
        for (Value v : transcript.asList()) {
            PyDict d = v.asDict();
            String role = d.get("role").asStr();
            switch (role) {
                case "assistant", "user" -> {
                    List<ToolCall> calls = new ArrayList<>();
                    Value cs = d.get("tool_calls");
                    if (cs != null && !cs.isNone()) {
                        for (Value cv : cs.asList()) {
                            PyDict c = cv.asDict();
                            calls.add(new ToolCall(
                                    str(c.get("id")),
                                    c.get("name").asStr(),
                                    c.get("arguments").asDict(),
                                    str(c.get("raw_arguments")),
                                    str(c.get("malformed"))));
                        }
                    }
                    PyDict u = d.get("usage").asDict();
                    Usage usage = new Usage(
                            ((PyInt) u.get("input_tokens")).longValue(), ((PyInt) u.get("output_tokens")).longValue());
                    out.add(
                            role.equals("assistant")
                                    ? new Tau2Message.Agent(str(d.get("content")), calls, usage)
                                    : new Tau2Message.User(str(d.get("content")), calls, usage));
                }
                case "tool" -> {
                    // Transcripts recorded before the shape followed upstream name the call "tool_call_id".
                    Value id = d.containsKey("id") ? d.get("id") : d.get("tool_call_id");
                    out.add(new Tau2Message.ToolResult(
                            str(id),
                            d.get("name").asStr(),
                            str(d.get("content")),
                            Requestor.parse(d.get("requestor").asStr()),
                            ((PyBool) d.get("error")).value()));
                }
                default -> throw new IllegalArgumentException("not a tau2 transcript message role: " + role);
            }
        }
        return out;
    }

    private static Value text(String s) {
        return s == null ? PyNone.NONE : new PyStr(s);
    }

    private static String str(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }
}
