package brokkr.domains.bfcl.multiturn;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.python.PyObjects;
import brokkr.python.PyRepr;
import brokkr.python.PyTuple;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upstream's function-calling inference loop for a multi-turn task ({@code base_handler.inference_multi_turn_FC}):
 * per turn the turn's user message(s) (a {@code miss_func} held-out turn: the held-out docs join the tools and the
 * user message is {@code DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC}); then model steps, each decoded
 * ({@code convert_to_function_call}: {@code name(k=repr(v),...)}) and executed against the world
 * ({@code is_evaL_run=False} instances), its results sent back as tool messages, until a step has no call or more
 * than {@link #MAXIMUM_STEP_LIMIT} steps ran (then the remaining turns are not played: {@code force_quit}).
 * The trajectory (turns, steps, decoded calls) is what upstream's checker grades.
 */
public final class MultiTurnInference {
    private MultiTurnInference() {}

    /** constants/default_prompts.py. */
    public static final int MAXIMUM_STEP_LIMIT = 20;
    public static final String ADDITIONAL_FUNCTION_PROMPT = "I have updated some more functions you can choose from. What about now?";

    /**
     * A played task: per turn, per step, the decoded call strings (an empty list for a step without a call);
     * the conversation; the world after the last step; whether the step limit cut it short; an
     * infrastructure failure that stopped it (then the trajectory is partial).
     */
    public record Trajectory(List<List<List<String>>> turns, List<Message> messages, World world, boolean forceQuit,
                             InfrastructureFailure failure) {}

    public static Trajectory run(MultiTurnData.Task task, MultiTurnTools tools, Candidate model, ToolCompiler.Style style,
                                 String modelName, String systemPrompt) {
        TaskSetup setup = task.setup();
        World world = Executor.execute(World.EMPTY, setup, modelName, false, List.of()).world();
        PyList functions = tools.initial(task);
        List<ToolSpec> specs = MultiTurnTools.specs(functions, style);
        List<Message> messages = new ArrayList<>();
        if (systemPrompt != null) messages.add(new Message.System(systemPrompt));
        List<List<List<String>>> turns = new ArrayList<>();
        boolean forceQuit = false;
        for (int turn = 0; turn < task.question().size(); turn++) {
            List<Message> userMessages = new ArrayList<>();
            if (task.missedFunction().containsKey(turn)) {
                List<Value> extended = new ArrayList<>(functions.items());
                extended.addAll(tools.added(task, turn).items());
                functions = PyList.of(extended);
                specs = MultiTurnTools.specs(functions, style);
                userMessages.add(new Message.User(ADDITIONAL_FUNCTION_PROMPT));
            } else {
                for (Value m : task.question().get(turn).asList()) {
                    PyDict d = m.asDict();
                    String role = d.get("role").asStr(), content = d.get("content").asStr();
                    userMessages.add(role.equals("system") ? new Message.System(content) : new Message.User(content));
                }
            }
            messages.addAll(userMessages);
            List<List<String>> steps = new ArrayList<>();
            int count = 0;
            while (true) {
                Turn reply;
                try {
                    reply = model.next(List.copyOf(messages), specs);
                } catch (InfrastructureFailure f) {
                    turns.add(steps);
                    return new Trajectory(turns, messages, world, false, f);
                }
                Message.Assistant a = reply.message();
                messages.add(a);
                List<String> decoded = decode(a);
                steps.add(decoded);
                if (decoded.isEmpty()) break;
                Executor.Execution e = Executor.execute(world, setup, modelName, false, decoded);
                world = e.world();
                for (int i = 0; i < a.toolCalls().size(); i++) {
                    ToolCall c = a.toolCalls().get(i);
                    messages.add(new Message.Tool(c.id(), c.name(), e.results().get(i), false));
                }
                count++;
                if (count > MAXIMUM_STEP_LIMIT) {
                    forceQuit = true;
                    break;
                }
            }
            turns.add(steps);
            if (forceQuit) break;
        }
        return new Trajectory(turns, messages, world, forceQuit, null);
    }

    /**
     * {@code decode_execute} of a function-calling reply: {@code convert_to_function_call}, one
     * {@code name(k=repr(v),...)} per tool call; no call (or arguments that are not a JSON object: upstream's
     * decode raises and the step counts as empty) gives an empty list.
     */
    public static List<String> decode(Message.Assistant a) {
        if (!a.hasToolCalls()) return List.of();
        List<String> out = new ArrayList<>();
        for (ToolCall c : a.toolCalls()) {
            if (c.isMalformed()) return List.of();
            StringBuilder sb = new StringBuilder(c.name()).append('(');
            boolean first = true;
            for (Map.Entry<String, Value> e : c.arguments().entries()) {
                if (!first) sb.append(',');
                first = false;
                sb.append(e.getKey()).append('=').append(PyRepr.repr(e.getValue()));
            }
            out.add(sb.append(')').toString());
        }
        return out;
    }

    /**
     * The scripted reference candidate: in each turn's first step it sends the turn's ground-truth calls as
     * function calls (keyword arguments as JSON), then a text reply that ends the turn; a turn whose ground
     * truth is empty gets the text reply at once.
     */
    public record GoldCandidate(MultiTurnData.Task task) implements Candidate {
        @Override public Turn next(List<Message> history, List<ToolSpec> tools) {
            Message last = history.getLast();
            if (!(last instanceof Message.User) && !(last instanceof Message.System)) return Turn.of(new Message.Assistant("Done."));
            int turn = turnOf(history);
            List<String> calls = task.groundTruth().get(turn);
            if (calls.isEmpty()) return Turn.of(new Message.Assistant("Nothing to do."));
            List<ToolCall> out = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) out.add(toolCall("call_" + turn + "_" + i, calls.get(i), task.involvedClasses()));
            return Turn.of(new Message.Assistant(null, out));
        }

        /** The turn the history's last user message belongs to (turns give 1 message when held out, else their own count). */
        private int turnOf(List<Message> history) {
            long users = history.stream().filter(m -> m instanceof Message.User).count();
            long seen = 0;
            for (int t = 0; t < task.question().size(); t++) {
                if (task.missedFunction().containsKey(t)) {
                    seen++;
                } else {
                    for (Value m : task.question().get(t).asList()) if (!m.asDict().get("role").asStr().equals("system")) seen++;
                }
                if (users <= seen) return t;
            }
            throw new IllegalStateException("more user messages than turns in " + task.id());
        }
    }

    /**
     * A ground-truth call string ({@code name(k=literal, ...)}, positional arguments named by the method's Python
     * signature) as a function call with JSON arguments.
     */
    static ToolCall toolCall(String id, String call, List<String> classes) {
        PyExpr e = PyParser.parse(call);
        if (!(e instanceof PyExpr.Call c) || !(c.fn() instanceof PyExpr.Name name)) {
            throw new IllegalArgumentException("not a plain call: " + call);
        }
        PyDict.Builder args = PyDict.builder();
        PyEval eval = new PyEval(n -> null);
        Method method = null;
        for (String cls : classes) {
            Method m = Backends.get(cls).methods().get(name.id());
            if (m != null) { method = m; break; }
        }
        if (method == null) throw new IllegalArgumentException("no involved class has a method " + name.id() + ": " + call);
        int position = 0;
        for (PyExpr.Arg a : c.args()) {
            if (a.star() != 0) throw new IllegalArgumentException("unpacking in a ground-truth call: " + call);
            String param = a.name() != null ? a.name() : method.params().get(position++).name();
            args.put(param, json(eval.eval(a.value())));
        }
        return new ToolCall(id, name.id(), args.build());
    }

    private static Value json(Object o) {
        return switch (o) {
            case PyNone n -> PyNone.NONE;
            case Boolean b -> PyBool.of(b);
            case BigInteger i -> new PyInt(i);
            case Double d -> new PyFloat(d);
            case String s -> new PyStr(s);
            case List<?> l -> PyList.of(l.stream().map(MultiTurnInference::json).toList());
            case PyTuple t -> PyList.of(t.items().stream().map(MultiTurnInference::json).toList());
            case Map<?, ?> m -> {
                PyDict.Builder b = PyDict.builder();
                for (Map.Entry<?, ?> en : m.entrySet()) b.put((String) en.getKey(), json(en.getValue()));
                yield b.build();
            }
            default -> throw new IllegalArgumentException("not JSON: " + PyObjects.typeName(o));
        };
    }
}
