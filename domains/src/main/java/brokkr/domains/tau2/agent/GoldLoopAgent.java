package brokkr.domains.tau2.agent;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.harness.Tau2Harness;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The gold replay as a model inside Brokkr's agent loop: on each customer turn it makes all gold
 * assistant actions up to the next user block at once, then asks for the user's actions, states the
 * communicate info and closes like {@link GoldReplayAgent}. Offered JSON tools, a run of actions is one
 * message with several tool calls; offered only {@value JavaRepl#TOOL}, it is one snippet calling the
 * {@code tau2} methods (positional where the arguments fit the Java signature, else
 * {@code tau2.call(name, map(...))}). Its position comes from the working conversation alone.
 */
public record GoldLoopAgent(TaskSpec task, List<ToolSpec> domainTools) implements Candidate {

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        boolean repl = tools.size() == 1 && tools.getFirst().name().equals(JavaRepl.TOOL);
        int callTurns = 0, answeredRequests = 0;
        boolean communicated = false;
        for (int i = 0; i < history.size(); i++) {
            if (!(history.get(i) instanceof Message.Assistant a)) continue;
            if (a.hasToolCalls()) callTurns++;
            String c = a.content();
            if (c != null && c.startsWith(GoldReplayAgent.USER_ACTIONS_REQUEST) && answeredLater(history, i))
                answeredRequests++;
            if (c != null && c.startsWith(GoldReplayAgent.COMMUNICATE_PREFIX)) communicated = true;
        }
        GoldScript script = GoldScript.of(
                task.criteria() == null ? List.of() : task.criteria().actionsOrEmpty());
        List<Object> phases = phases(script);
        for (Object phase : phases) {
            if (phase instanceof GoldScript.UserBlock block) {
                if (answeredRequests > 0) {
                    answeredRequests--;
                    continue;
                }
                return Turn.of(new Message.Assistant(GoldReplayAgent.USER_ACTIONS_REQUEST + " "
                        + block.actions().stream().map(GoldAction::name).collect(Collectors.joining(", "))));
            }
            @SuppressWarnings("unchecked")
            List<GoldScript.AgentStep> run = (List<GoldScript.AgentStep>) phase;
            if (callTurns > 0) {
                callTurns--;
                continue;
            }
            if (repl) {
                StringBuilder code = new StringBuilder();
                for (GoldScript.AgentStep s : run) code.append(java(s.action())).append(";\n");
                return Turn.of(new Message.Assistant(
                        null, List.of(new ToolCall(null, JavaRepl.TOOL, PyDict.of("code", code.toString())))));
            }
            List<ToolCall> calls = new ArrayList<>();
            for (GoldScript.AgentStep s : run) calls.add(GoldReplayAgent.call("gold-" + s.index(), s.action()));
            return Turn.of(new Message.Assistant(null, calls));
        }
        List<String> infos = task.criteria() == null || task.criteria().communicateInfo() == null
                ? List.of()
                : task.criteria().communicateInfo();
        if (!infos.isEmpty() && !communicated) {
            return Turn.of(
                    new Message.Assistant(GoldReplayAgent.COMMUNICATE_PREFIX + " " + String.join("; ", infos) + "."));
        }
        return Turn.of(new Message.Assistant(GoldReplayAgent.CLOSING));
    }

    /** Runs of consecutive assistant actions (a list each) and the user blocks between them. */
    private static List<Object> phases(GoldScript script) {
        List<Object> out = new ArrayList<>();
        List<GoldScript.AgentStep> run = new ArrayList<>();
        for (GoldScript.Segment s : script.segments()) {
            if (s instanceof GoldScript.AgentStep step) {
                run.add(step);
                continue;
            }
            if (!run.isEmpty()) {
                out.add(List.copyOf(run));
                run.clear();
            }
            out.add(s);
        }
        if (!run.isEmpty()) out.add(List.copyOf(run));
        return out;
    }

    private static boolean answeredLater(List<Message> history, int i) {
        for (int j = i + 1; j < history.size(); j++) if (history.get(j) instanceof Message.User) return true;
        return false;
    }

    /** One gold action as a Java call on the tau2 object. */
    String java(GoldAction a) {
        ToolSpec spec = domainTools.stream()
                .filter(t -> t.name().equals(a.name()))
                .findFirst()
                .orElse(null);
        String ns = Tau2Harness.NAMESPACE;
        if (spec != null) {
            List<String> order =
                    spec.parameters().get("properties") instanceof PyDict p ? new ArrayList<>(p.keys()) : List.of();
            List<String> given = new ArrayList<>(a.arguments().keys());
            int required = spec.parameters().get("required") instanceof PyList r ? r.size() : 0;
            if (given.size() >= required
                    && order.subList(0, Math.min(given.size(), order.size())).equals(given)
                    && fits(spec, a.arguments())) {
                List<String> args = new ArrayList<>();
                for (String k : given) args.add(JavaApi.literal(a.arguments().get(k)));
                return ns + "." + JavaApi.javaName(a.name()) + "(" + String.join(", ", args) + ")";
            }
        }
        List<String> kv = new ArrayList<>();
        for (Map.Entry<String, Value> e : a.arguments().entries()) {
            kv.add(JavaApi.lit(e.getKey()));
            kv.add(JavaApi.literal(e.getValue()));
        }
        return ns + ".call(" + JavaApi.lit(a.name()) + ", map(" + String.join(", ", kv) + "))";
    }

    /** Whether each value passes to its positional Java parameter unchanged (no int widened to a double, no null). */
    private static boolean fits(ToolSpec spec, PyDict args) {
        PyDict props = spec.parameters().get("properties").asDict();
        for (var e : args.entries()) {
            Value schema = props.get(e.getKey());
            String type = schema instanceof PyDict d && d.get("type") instanceof PyStr s ? s.value() : null;
            Value v = e.getValue();
            boolean ok = switch (type == null ? "" : type) {
                case "string" -> v instanceof PyStr;
                case "integer" -> v instanceof PyInt i && i.value().bitLength() < 64;
                case "number" -> v instanceof PyFloat;
                case "boolean" -> v instanceof PyBool;
                case "array" -> v instanceof PyList;
                case "object" -> v instanceof PyDict;
                default -> false;
            };
            if (!ok) return false;
        }
        return true;
    }
}
