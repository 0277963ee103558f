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
 * A tau2 trajectory as portable transcript data and back, losslessly: the record of an attempt is what
 * the evaluator grades and what verify-world replays, so everything the grader reads (text, tool calls
 * with ids and arguments, tool results with requestor and error flag) survives the round trip. The
 * shape is the OpenAI chat one that {@code Inspect} prints: {@code {"role": "assistant"|"user",
 * "content", "tool_calls": [{"id", "name", "arguments", "raw_arguments"?, "malformed"?}], "usage"}} and
 * {@code {"role": "tool", "tool_call_id", "name", "content", "requestor", "error"}}.
 */
public final class Tau2Transcript {
    private Tau2Transcript() {}

    public static PyList toValue(List<Tau2Message> trajectory) {
        List<Value> out = new ArrayList<>(trajectory.size());
        for (Tau2Message m : trajectory) out.add(toValue(m));
        return PyList.of(out);
    }

    static PyDict toValue(Tau2Message m) {
        PyDict.Builder b = PyDict.builder().put("role", m.role());
        switch (m) {
            case Tau2Message.Participant p -> {
                b.put("content", text(p.content()));
                List<Value> calls = new ArrayList<>();
                for (ToolCall tc : p.toolCalls()) {
                    PyDict.Builder c = PyDict.builder().put("id", text(tc.id())).put("name", tc.name())
                            .put("arguments", tc.arguments() == null ? PyDict.empty() : tc.arguments());
                    if (tc.rawArguments() != null) c.put("raw_arguments", tc.rawArguments());
                    if (tc.malformed() != null) c.put("malformed", tc.malformed());
                    calls.add(c.build());
                }
                b.put("tool_calls", PyList.of(calls));
                b.put("usage", PyDict.of("input_tokens", p.usage().inputTokens(), "output_tokens", p.usage().outputTokens()));
            }
            case Tau2Message.ToolResult t -> b.put("tool_call_id", text(t.id())).put("name", t.name()).put("content", text(t.content()))
                    .put("requestor", t.requestor().wire()).put("error", PyBool.of(t.error()));
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
                    for (Value cv : d.get("tool_calls").asList()) {
                        PyDict c = cv.asDict();
                        calls.add(new ToolCall(str(c.get("id")), c.get("name").asStr(), c.get("arguments").asDict(),
                                str(c.get("raw_arguments")), str(c.get("malformed"))));
                    }
                    PyDict u = d.get("usage").asDict();
                    Usage usage = new Usage(((PyInt) u.get("input_tokens")).longValue(), ((PyInt) u.get("output_tokens")).longValue());
                    out.add(role.equals("assistant") ? new Tau2Message.Agent(str(d.get("content")), calls, usage)
                            : new Tau2Message.User(str(d.get("content")), calls, usage));
                }
                case "tool" -> out.add(new Tau2Message.ToolResult(str(d.get("tool_call_id")), d.get("name").asStr(), str(d.get("content")),
                        Requestor.parse(d.get("requestor").asStr()), ((PyBool) d.get("error")).value()));
                default -> throw new IllegalArgumentException("not a tau2 transcript message role: " + role);
            }
        }
        return out;
    }

    private static Value text(String s) { return s == null ? PyNone.NONE : new PyStr(s); }

    private static String str(Value v) { return v == null || v.isNone() ? null : v.asStr(); }
}
