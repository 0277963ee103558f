package brokkr.domains.synthetic.parallel;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.synthetic.SyntheticTools;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted lookup agent: a pure function of the conversation, reading the ids from the system
 * prompt and the values from the tool results, as a model would. Each step it looks up at most
 * {@code perTurn} of the ids it has not looked up yet, all in one message; when none is left it
 * answers with the values separated by spaces.
 */
public record Batcher(String name, int perTurn) implements Candidate {
    public static final List<String> NAMES = List.of("batch", "serial");

    /** All lookups in one turn: the ideal. */
    public static Batcher batch() {
        return new Batcher("batch", Integer.MAX_VALUE);
    }

    /** One lookup per turn. */
    public static Batcher serial() {
        return new Batcher("serial", 1);
    }

    public static Batcher named(String name) {
        return switch (name) {
            case "batch" -> batch();
            case "serial" -> serial();
            default ->
                throw new IllegalArgumentException("unknown parallel candidate '" + name + "' (one of " + NAMES + ")");
        };
    }

    static final Pattern IDS = Pattern.compile("these \\d+ ids:\\s*\\n([^\\n]*)");
    static final Pattern VALUE = Pattern.compile("value=(\\S+)");

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        Map<String, String> values = new LinkedHashMap<>();
        int made = 0;
        for (SyntheticTools.Answered a : SyntheticTools.answeredCalls(history, ParallelDiscrimination.TOOL)) {
            made++;
            Matcher m = a.ok() && a.result().content() != null
                    ? VALUE.matcher(a.result().content())
                    : null;
            if (m != null && m.matches() && a.call().arguments().get("id") instanceof PyStr id)
                values.put(id.value(), m.group(1));
        }
        List<String> todo = new ArrayList<>();
        for (String id : ids(history)) if (!values.containsKey(id)) todo.add(id);
        // A lookup that failed is not retried: the scripted agents model batching, not recovery.
        if (todo.isEmpty() || made >= ids(history).size()) {
            return Turn.of(new Message.Assistant(String.join(" ", values.values())));
        }
        List<ToolCall> calls = new ArrayList<>();
        for (String id : todo.subList(0, Math.min(perTurn, todo.size()))) {
            PyDict args = PyDict.of("id", id);
            calls.add(new ToolCall(
                    SyntheticTools.callId(made + calls.size() + 1),
                    ParallelDiscrimination.TOOL,
                    args,
                    PyJson.dumps(args),
                    null));
        }
        return Turn.of(new Message.Assistant(null, calls));
    }

    static List<String> ids(List<Message> history) {
        for (Message m : history) {
            if (m instanceof Message.System s) {
                Matcher k = IDS.matcher(s.content());
                if (k.find()) return List.of(k.group(1).trim().split(",\\s*"));
            }
        }
        throw new IllegalStateException("no ids in the system prompt");
    }
}
