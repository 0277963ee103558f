package brokkr.domains.bfcl.multiturn;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.SpendLimit;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.python.PyObjects;
import brokkr.python.PyRepr;
import brokkr.python.PyTuple;
import brokkr.python.source.PyEval;
import brokkr.python.source.PyExpr;
import brokkr.python.source.PyParser;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
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

    public static final String ADDITIONAL_FUNCTION_PROMPT =
            "I have updated some more functions you can choose from. What about now?";

    /**
     * A played task: per turn, per step, the decoded call strings (an empty list for a step without a call);
     * the conversation; the world after the last step; whether the step limit cut it short; an
     * infrastructure failure that stopped it (then the trajectory is partial); whether the cell's budget stopped it
     * ({@code cellBudget}: the step whose model call reached {@code budget.per_cell} is not executed and no later
     * step or turn is played, so upstream's checker grades it as a force-terminated trajectory).
     */
    public record Trajectory(
            List<List<List<String>>> turns,
            List<Message> messages,
            World world,
            boolean forceQuit,
            boolean cellBudget,
            InfrastructureFailure failure) {}

    public static Trajectory run(
            MultiTurnData.Task task,
            MultiTurnTools tools,
            Candidate model,
            ToolCompiler.Style style,
            String modelName,
            String systemPrompt) {
        return run(task, tools, model, style, modelName, systemPrompt, SpendLimit.NONE);
    }

    /** As {@link #run(MultiTurnData.Task, MultiTurnTools, Candidate, ToolCompiler.Style, String, String)}, within the cell's {@code budget}. */
    public static Trajectory run(
            MultiTurnData.Task task,
            MultiTurnTools tools,
            Candidate model,
            ToolCompiler.Style style,
            String modelName,
            String systemPrompt,
            SpendLimit budget) {
        return run(task, tools, model, style, modelName, systemPrompt, budget, World.EMPTY);
    }

    /** Upstream's loop in {@code start} (a memory entry: the world the entries before it left). */
    public static Trajectory run(
            MultiTurnData.Task task,
            MultiTurnTools tools,
            Candidate model,
            ToolCompiler.Style style,
            String modelName,
            String systemPrompt,
            SpendLimit budget,
            World start) {
        return play(task, tools, style, modelName, new Upstream(model, systemPrompt), budget, start);
    }

    /**
     * What plays the steps of each turn: upstream's function-calling loop ({@link Upstream}) or a harness of
     * Brokkr's ({@link MultiTurnHarness}); the turns, their messages, held-out functions and the trajectory are
     * {@link #play}'s.
     */
    public interface Player {
        /** The user message a held-out turn begins with, given the functions it adds (as the model is offered them). */
        default String heldOutMessage(List<ToolSpec> added) {
            return ADDITIONAL_FUNCTION_PROMPT;
        }

        /**
         * Plays one turn: its messages join the conversation, then model steps, each step's calls made through
         * {@code steps}, until a step has no call ({@link Steps#answered}) or {@link Steps#forceQuit}.
         */
        void turn(List<Message> turnMessages, List<ToolSpec> functions, Steps steps) throws InfrastructureFailure;

        /** The conversation as played so far. */
        List<Message> messages();
    }

    /**
     * One turn's steps as the trajectory records them, executed against the world as upstream's loop executes
     * them ({@code execute_multi_turn_func_call} of each decoded step, {@code is_evaL_run=False}), and upstream's
     * step count: more than {@link #MAXIMUM_STEP_LIMIT} steps with calls in one turn is a force quit.
     */
    public static final class Steps {
        private final TaskSetup setup;
        private final String modelName;
        private World world;
        private final List<List<String>> recorded = new ArrayList<>();
        private List<String> open;
        private int count;
        private final SpendLimit budget;
        private boolean stoppedByBudget;

        Steps(TaskSetup setup, String modelName, World world, SpendLimit budget) {
            this.setup = setup;
            this.modelName = modelName;
            this.world = world;
            this.budget = budget;
        }

        /** The cell's budget, as the candidate's recorded calls have spent it. */
        public SpendLimit budget() {
            return budget;
        }

        /**
         * Whether the model call just made reached the cell's budget: then its step is not executed and the task
         * ends ({@link Trajectory#cellBudget}), as tau2's orchestrator ends at the agent message that reaches it.
         */
        public boolean stopsForBudget() {
            if (budget.reached()) stoppedByBudget = true;
            return stoppedByBudget;
        }

        /** A player whose own loop stopped for the cell's budget says so here. */
        public void stoppedByBudget() {
            stoppedByBudget = true;
        }

        /** Executes one step's decoded calls in order; their results. */
        public List<String> step(List<String> calls) {
            if (open != null) throw new IllegalStateException("a step made call by call is still open");
            recorded.add(List.copyOf(calls));
            Executor.Execution e = Executor.execute(world, setup, modelName, false, calls);
            world = e.world();
            count++;
            return e.results();
        }

        /**
         * One call of a step whose calls come one at a time (a REPL snippet's, each needing its result before the
         * next): executed at once; the step is recorded whole and counted at {@link #endStep}.
         */
        public String call(String call) {
            if (open == null) {
                open = new ArrayList<>();
                recorded.add(open);
            }
            open.add(call);
            Executor.Execution e = Executor.execute(world, setup, modelName, false, List.of(call));
            world = e.world();
            return e.results().getFirst();
        }

        /** Ends the step made call by call; a step that made no call is no step. */
        public void endStep() {
            if (open == null) return;
            recorded.set(recorded.size() - 1, List.copyOf(open));
            open = null;
            count++;
        }

        /** A step without a call: the turn's answer. */
        public void answered() {
            endStep();
            recorded.add(List.of());
        }

        /** Upstream's {@code count > MAXIMUM_STEP_LIMIT}: the turn, and the task, end here. */
        public boolean forceQuit() {
            return count > MAXIMUM_STEP_LIMIT;
        }

        List<List<String>> recorded() {
            endStep();
            return List.copyOf(recorded);
        }
    }

    /** Plays {@code task} with {@code player}: per turn its user message(s), or a held-out turn's functions and message. */
    public static Trajectory play(
            MultiTurnData.Task task, MultiTurnTools tools, ToolCompiler.Style style, String modelName, Player player) {
        return play(task, tools, style, modelName, player, SpendLimit.NONE);
    }

    /** As {@link #play(MultiTurnData.Task, MultiTurnTools, ToolCompiler.Style, String, Player)}, within the cell's {@code budget}. */
    public static Trajectory play(
            MultiTurnData.Task task,
            MultiTurnTools tools,
            ToolCompiler.Style style,
            String modelName,
            Player player,
            SpendLimit budget) {
        return play(task, tools, style, modelName, player, budget, World.EMPTY);
    }

    /**
     * As {@link #play(MultiTurnData.Task, MultiTurnTools, ToolCompiler.Style, String, Player, SpendLimit)}, in
     * {@code start} rather than a pristine process: a memory entry runs in the world the entries before it left
     * (their snapshot files; its instance made there, or already made).
     */
    public static Trajectory play(
            MultiTurnData.Task task,
            MultiTurnTools tools,
            ToolCompiler.Style style,
            String modelName,
            Player player,
            SpendLimit budget,
            World start) {
        TaskSetup setup = task.setup();
        World world =
                Executor.execute(start, setup, modelName, false, List.of()).world();
        PyList functions = tools.initial(task);
        List<ToolSpec> specs = MultiTurnTools.specs(functions, style);
        List<List<List<String>>> turns = new ArrayList<>();
        boolean forceQuit = false, cellBudget = false;
        for (int turn = 0; turn < task.question().size(); turn++) {
            List<Message> userMessages = new ArrayList<>();
            if (task.missedFunction().containsKey(turn)) {
                PyList added = tools.added(task, turn);
                List<Value> extended = new ArrayList<>(functions.items());
                extended.addAll(added.items());
                functions = PyList.of(extended);
                specs = MultiTurnTools.specs(functions, style);
                userMessages.add(new Message.User(player.heldOutMessage(MultiTurnTools.specs(added, style))));
            } else {
                for (Value m : task.question().get(turn).asList()) {
                    PyDict d = m.asDict();
                    String role = d.get("role").asStr(),
                            content = d.get("content").asStr();
                    userMessages.add(role.equals("system") ? new Message.System(content) : new Message.User(content));
                }
            }
            Steps steps = new Steps(setup, modelName, world, budget);
            try {
                player.turn(userMessages, specs, steps);
            } catch (InfrastructureFailure f) {
                turns.add(steps.recorded());
                return new Trajectory(turns, player.messages(), steps.world, false, false, f);
            } catch (IoFailure f) {
                // a backend's IO failed (a web recording without the request): no verdict, as a model call's failure
                turns.add(steps.recorded());
                return new Trajectory(
                        turns,
                        player.messages(),
                        steps.world,
                        false,
                        false,
                        new InfrastructureFailure(f.getMessage(), List.of(), f));
            }
            turns.add(steps.recorded());
            world = steps.world;
            if (steps.stoppedByBudget) {
                cellBudget = true;
                break;
            }
            if (steps.forceQuit()) {
                forceQuit = true;
                break;
            }
        }
        return new Trajectory(turns, player.messages(), world, forceQuit, cellBudget, null);
    }

    /**
     * Upstream's step loop ({@code inference_multi_turn_FC}): model steps over the whole conversation, each decoded
     * and executed, its results sent back as tool messages, until a step has no call or the step limit is passed.
     */
    record Upstream(Candidate model, List<Message> messages) implements Player {
        Upstream(Candidate model, String systemPrompt) {
            this(model, new ArrayList<>());
            if (systemPrompt != null) messages.add(new Message.System(systemPrompt));
        }

        @Override
        public void turn(List<Message> turnMessages, List<ToolSpec> functions, Steps steps)
                throws InfrastructureFailure {
            messages.addAll(turnMessages);
            while (true) {
                Message.Assistant a =
                        model.next(List.copyOf(messages), functions).message();
                messages.add(a);
                if (steps.stopsForBudget()) return; // its calls are not executed
                List<String> decoded = decode(a);
                if (decoded.isEmpty()) {
                    steps.answered();
                    return;
                }
                List<String> results = steps.step(decoded);
                for (int i = 0; i < a.toolCalls().size(); i++) {
                    ToolCall c = a.toolCalls().get(i);
                    messages.add(new Message.Tool(c.id(), c.name(), results.get(i), false));
                }
                if (steps.forceQuit()) return;
            }
        }
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
     * truth is empty gets the text reply at once. Offered only {@value JavaRepl#TOOL} (harness loop, action
     * space repl), the turn's calls are one Java snippet of recorder method calls ({@code cd(map("folder", "document"))}).
     * Its position is the count of user messages, so it plays the same in upstream's conversation and in a
     * harness's working one.
     */
    public record GoldCandidate(MultiTurnData.Task task) implements Candidate {
        @Override
        public Turn next(List<Message> history, List<ToolSpec> tools) {
            Message last = history.getLast();
            if (!(last instanceof Message.User) && !(last instanceof Message.System))
                return Turn.of(new Message.Assistant("Done."));
            int turn = turnOf(history);
            List<String> calls = task.groundTruth().get(turn);
            if (calls.isEmpty()) return Turn.of(new Message.Assistant("Nothing to do."));
            List<ToolCall> out = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++)
                out.add(toolCall("call_" + turn + "_" + i, calls.get(i), task.involvedClasses()));
            if (tools.size() == 1 && tools.getFirst().name().equals(JavaRepl.TOOL)) {
                // The REPL action space (harness loop): the same calls as one snippet, one recorder method call each.
                StringBuilder code = new StringBuilder();
                for (ToolCall c : out) {
                    // A function held out until a later turn is no method yet: called by name, as upstream's executor
                    // runs it.
                    boolean heldOut = task.missedFunction().entrySet().stream()
                            .anyMatch(e -> e.getKey() > turn && e.getValue().contains(c.name()));
                    code.append(
                                    heldOut
                                            ? "call(" + JavaApi.lit(c.name()) + ", " + JavaApi.literal(c.arguments())
                                                    + ")"
                                            : JavaApi.recorderCall(c.name(), c.arguments()))
                            .append(";\n");
                }
                return Turn.of(new Message.Assistant(
                        null,
                        List.of(new ToolCall("call_" + turn, JavaRepl.TOOL, PyDict.of("code", code.toString())))));
            }
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
                    for (Value m : task.question().get(t).asList())
                        if (!m.asDict().get("role").asStr().equals("system")) seen++;
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
        PyExpr e = PyParser.parse(call, BfclData.PYTHON);
        if (!(e instanceof PyExpr.Call c) || !(c.fn() instanceof PyExpr.Name name)) {
            throw new IllegalArgumentException("not a plain call: " + call);
        }
        PyDict.Builder args = PyDict.builder();
        PyEval eval = new PyEval(n -> null, BfclData.PYTHON);
        Method method = null;
        for (String cls : classes) {
            Method m = Backends.get(cls).methods().get(name.id());
            if (m != null) {
                method = m;
                break;
            }
        }
        if (method == null)
            throw new IllegalArgumentException("no involved class has a method " + name.id() + ": " + call);
        int position = 0;
        for (PyExpr.Arg a : c.args()) {
            if (a.star() != 0) throw new IllegalArgumentException("unpacking in a ground-truth call: " + call);
            String param = a.name() != null
                    ? a.name()
                    : method.params().get(position++).name();
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
            case PyTuple t ->
                PyList.of(t.items().stream().map(MultiTurnInference::json).toList());
            case Map<?, ?> m -> {
                PyDict.Builder b = PyDict.builder();
                for (Map.Entry<?, ?> en : m.entrySet()) b.put((String) en.getKey(), json(en.getValue()));
                yield b.build();
            }
            default -> throw new IllegalArgumentException("not JSON: " + PyObjects.typeName(o));
        };
    }
}
