package brokkr.domains.tau2.conformance;

import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.domains.tau2.environment.EpisodeEnvironment.RecordedCall;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Upstream's message JSON ({@code AssistantMessage}, {@code UserMessage}, {@code ToolMessage} of
 * {@code src/tau2/data_model/message.py}, {@code model_dump(mode="json")}) as Brokkr's trajectory, and the
 * tool calls paired with their results the way {@code Environment.set_state} pairs them.
 */
public final class UpstreamMessages {
    private UpstreamMessages() {}

    /**
     * The trajectory (tool results named after the call they answer) and, on demand, the calls with their recorded
     * results ({@link #calls}).
     */
    public record Parsed(List<Tau2Message> trajectory, PyList messages) {
        public Parsed {
            trajectory = List.copyOf(trajectory);
        }

        /**
         * The calls paired with their results as {@code set_state} pairs them, which upstream's
         * {@code evaluate_simulation} reaches only for a normal stop: an episode stopped prematurely may end on a
         * message whose tool calls were never run (a Brokkr cell budget's stop), and still loads and grades (0).
         */
        public List<RecordedCall> calls() {
            return List.copyOf(pair(messages));
        }
    }

    public static Parsed parse(PyList messages) {
        List<Tau2Message> out = new ArrayList<>();
        Map<String, String> callNames = new HashMap<>();
        for (Value v : messages) {
            PyDict d = v.asDict();
            String role = d.get("role").asStr();
            switch (role) {
                case "assistant", "user" -> {
                    List<ToolCall> calls = new ArrayList<>();
                    if (d.get("tool_calls") instanceof PyList tcs) {
                        for (Value tv : tcs) {
                            PyDict c = tv.asDict();
                            String id = UpstreamSimulation.str(c.get("id"));
                            calls.add(new ToolCall(
                                    id,
                                    c.get("name").asStr(),
                                    c.get("arguments").asDict(),
                                    null,
                                    null));
                            callNames.put(id, c.get("name").asStr());
                        }
                    }
                    String content = UpstreamSimulation.str(d.get("content"));
                    Usage usage = usage(d.get("usage"));
                    out.add(
                            role.equals("assistant")
                                    ? new Tau2Message.Agent(content, calls, usage)
                                    : new Tau2Message.User(content, calls, usage));
                }
                case "tool" -> {
                    String id = UpstreamSimulation.str(d.get("id"));
                    out.add(new Tau2Message.ToolResult(
                            id,
                            callNames.getOrDefault(id, ""),
                            UpstreamSimulation.str(d.get("content")),
                            Requestor.parse(d.get("requestor").asStr()),
                            d.get("error") instanceof PyBool b && b.value()));
                }
                default ->
                    throw new IllegalArgumentException(
                            "a message with role '" + role + "' (not assistant, user or tool)");
            }
        }
        return new Parsed(out, messages);
    }

    /**
     * {@code set_state}'s {@code get_actions_from_messages}: each tool call is answered by the next message,
     * which must be a {@code ToolMessage} with the call's id. A violation is upstream's {@code ValueError},
     * here an {@link IllegalArgumentException} with upstream's text.
     */
    static List<RecordedCall> pair(PyList messages) {
        List<RecordedCall> out = new ArrayList<>();
        int i = 0;
        while (i < messages.size()) {
            PyDict m = messages.get(i++).asDict();
            String role = m.get("role").asStr();
            if (role.equals("tool"))
                throw new IllegalArgumentException(
                        "Tool message not expected. Tool messages should always follow a tool call.");
            if (!(m.get("tool_calls") instanceof PyList tcs) || tcs.isEmpty()) continue;
            for (Value tv : tcs) {
                PyDict tc = tv.asDict();
                if (i >= messages.size()) throw new IllegalArgumentException("Tool message expected. Got None.");
                PyDict tm = messages.get(i++).asDict();
                if (!tm.get("role").asStr().equals("tool"))
                    throw new IllegalArgumentException(
                            "Tool message expected. Got " + tm.get("role").asStr() + " message");
                String id = UpstreamSimulation.str(tc.get("id")), tmId = UpstreamSimulation.str(tm.get("id"));
                if (!Objects.equals(id, tmId))
                    throw new IllegalArgumentException("Tool call id mismatch. Got " + id + " and " + tmId);
                Requestor r = tc.get("requestor") == null || tc.get("requestor").isNone()
                        ? Requestor.ASSISTANT
                        : Requestor.parse(tc.get("requestor").asStr());
                out.add(new RecordedCall(
                        r,
                        tc.get("name").asStr(),
                        tc.get("arguments").asDict(),
                        UpstreamSimulation.str(tm.get("content"))));
            }
        }
        return out;
    }

    /** litellm's usage dict ({@code prompt_tokens}, {@code completion_tokens}) or Brokkr's; zero when null. */
    static Usage usage(Value v) {
        if (!(v instanceof PyDict u)) return Usage.ZERO;
        return new Usage(count(u, "prompt_tokens", "input_tokens"), count(u, "completion_tokens", "output_tokens"));
    }

    private static long count(PyDict u, String upstream, String brokkr) {
        Value v = u.containsKey(upstream) ? u.get(upstream) : u.get(brokkr);
        return v instanceof PyInt i ? i.longValue() : 0;
    }
}
