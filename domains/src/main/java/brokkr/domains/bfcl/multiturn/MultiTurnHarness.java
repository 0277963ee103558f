package brokkr.domains.bfcl.multiturn;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.Transcript;
import brokkr.agent.YieldingLoop;
import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.SpendLimit;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxPool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * bfcl-multi-turn under {@code harness: loop}: Brokkr's agent loop ({@link AgentLoop}) in one working conversation
 * per episode plays each turn of upstream's inference ({@link MultiTurnInference#play}: the same user messages,
 * held-out functions at their turn, trajectory and step limit). On each user message it may make several calls over
 * several model steps before answering with text. Every call is decoded as upstream decodes a function call
 * ({@code name(k=repr(v),...)}) and executed by upstream's {@link Executor} against the task's world, and the calls of
 * one model step are one step of the trajectory, so the checker grades what upstream's loop would have recorded for
 * the same calls.
 *
 * <p>{@code action_space: tools}: the functions as JSON tools, every model step with calls one step.
 * {@code action_space: repl}: one tool, {@value JavaRepl#TOOL}; the functions are Java methods taking one map of
 * keyword arguments ({@code ls(map("a", true))}, {@link JavaApi#recorderMethods}), each call made at once and
 * returning upstream's result text ({@code call(name, map)} calls one by name); all calls the snippets of one model
 * step make are one step. A held-out function becomes a method only at its turn, whose user message then gives its Java signature before upstream's text (as
 * upstream's prompting handlers put the function docs before it: {@code DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING}).
 *
 * <p>Where Brokkr's loop differs from upstream's by design: a call whose arguments are not a JSON object is answered
 * with an error and the model goes on (upstream's decode fails and ends the turn); more than {@code max_turn_steps}
 * model steps in one turn end the turn without an answer (upstream has no such limit; its limit of
 * {@value MultiTurnInference#MAXIMUM_STEP_LIMIT} steps with calls applies as it is, and comes first at the default 30).
 */
public final class MultiTurnHarness {
    private MultiTurnHarness() {}

    /** Plays {@code task} with {@code model} under the loop harness {@code h}, in {@code actionSpace} tools or repl. */
    public static MultiTurnInference.Trajectory run(
            Harness h,
            String actionSpace,
            MultiTurnData.Task task,
            MultiTurnTools tools,
            Candidate model,
            ToolCompiler.Style style,
            String modelName,
            String systemPrompt) {
        return run(h, actionSpace, task, tools, model, style, modelName, systemPrompt, SpendLimit.NONE);
    }

    /** As {@link #run(Harness, String, MultiTurnData.Task, MultiTurnTools, Candidate, ToolCompiler.Style, String, String)}, within the cell's {@code budget}. */
    public static MultiTurnInference.Trajectory run(
            Harness h,
            String actionSpace,
            MultiTurnData.Task task,
            MultiTurnTools tools,
            Candidate model,
            ToolCompiler.Style style,
            String modelName,
            String systemPrompt,
            SpendLimit budget) {
        return run(h, actionSpace, task, tools, model, style, modelName, systemPrompt, budget, World.EMPTY);
    }

    /** As {@link #run(Harness, String, MultiTurnData.Task, MultiTurnTools, Candidate, ToolCompiler.Style, String, String, SpendLimit)}, in {@code start} (a memory entry: the world the entries before it left). */
    public static MultiTurnInference.Trajectory run(
            Harness h,
            String actionSpace,
            MultiTurnData.Task task,
            MultiTurnTools tools,
            Candidate model,
            ToolCompiler.Style style,
            String modelName,
            String systemPrompt,
            SpendLimit budget,
            World start) {
        if (!h.loop()) throw new IllegalArgumentException("MultiTurnHarness runs harness loop, not " + h.label());
        boolean repl = actionSpace.equals(Harness.REPL);
        if (!repl && !actionSpace.equals("tools")) {
            throw new IllegalArgumentException(
                    "bfcl-multi-turn's harness loop takes action_space tools or repl, not '" + actionSpace + "'");
        }
        if (repl != (h.replGuidance() != null)) {
            throw new IllegalArgumentException(
                    "harness " + h.label() + " does not go with action_space " + actionSpace);
        }
        if (!repl)
            return MultiTurnInference.play(
                    task,
                    tools,
                    style,
                    modelName,
                    new Loop(model, systemPrompt, h.maxTurnSteps(), null),
                    budget,
                    start);
        List<ToolSpec> initial = MultiTurnTools.specs(tools.initial(task), style);
        JavaApi api = replApi(initial);
        String prompt = replPrompt(h, api) + (systemPrompt == null ? "" : "\n\n" + systemPrompt);
        // Any function of the task's classes may be called by name, as upstream's executor runs any function a model
        // names, offered yet or not (multi_turn_miss_func_49's ground truth calls tail two turns before it is offered).
        List<ToolSpec> callable = new ArrayList<>(initial);
        for (int turn : task.missedFunction().keySet())
            callable.addAll(MultiTurnTools.specs(tools.added(task, turn), style));
        try (Sandbox sandbox = SandboxPool.shared(h.sandboxConfig()).acquire()) {
            JavaRepl repl0 = JavaRepl.open(sandbox, api, callable, h.outputLimit(), null, null);
            return MultiTurnInference.play(
                    task,
                    tools,
                    style,
                    modelName,
                    new Loop(model, prompt, h.maxTurnSteps(), new Repl(repl0, initial)),
                    budget,
                    start);
        }
    }

    /** The REPL's API: the helpers, {@code parse}/{@code shape}, and the functions offered before any held-out turn. */
    public static JavaApi replApi(List<ToolSpec> functions) {
        JavaApi recorders = JavaApi.recorders(functions);
        return new JavaApi(JavaApi.CALL_HELPER, "", Map.of()).plus(recorders);
    }

    /** What the REPL candidate is told: the action space, how functions are called and answered, the guidance, every function as Java. */
    public static String replPrompt(Harness h, JavaApi api) {
        return "# How you act\n" + JavaRepl.actionSpaceText(h)
                + JavaApi.RECORDER_CALLS
                + " Each call is made at once against the environment, is one function call of yours, "
                + "and returns the function's result text exactly as it gives it (usually JSON; an error is its text). "
                + JavaApi.RECORDER_LITERALS
                + " parse(text) turns JSON text into maps, lists, strings, numbers and booleans; "
                + "shape(x) gives a compact summary of a value's structure; call(\"name\", map(...)) calls a function by name. "
                + "java.util, java.util.stream and java.math are imported. "
                + "Functions made available later are announced in a user message with their Java signatures and are methods "
                + "from then on.\nWhen you have done what the user asked (or need to ask them something), answer with text "
                + "(no tool call).\n\n"
                + "## Guidance\n" + h.replGuidance().untypedText("", "BFCL's functions") + "\n\n"
                + "## Functions\n" + api.reference();
    }

    /** Ends a turn's agent loop once upstream's step limit is passed: an Error, so that no catch of the loop's turns it into a result. */
    private static final class ForceQuit extends Error {
        final List<Message> history;

        ForceQuit(List<Message> history) {
            super(null, null, false, false);
            this.history = history;
        }
    }

    /** The REPL's actions, whose methods grow when a held-out turn offers more functions. */
    private static final class Repl implements YieldingLoop.Actions {
        private JavaRepl repl;
        private final Set<String> methods = new HashSet<>();

        Repl(JavaRepl repl, List<ToolSpec> methods) {
            this.repl = repl;
            for (ToolSpec m : methods) this.methods.add(m.name());
        }

        @Override
        public List<ToolSpec> tools(List<ToolSpec> functions) {
            List<ToolSpec> added =
                    functions.stream().filter(f -> !methods.contains(f.name())).toList();
            if (!added.isEmpty()) {
                repl = repl.with(JavaApi.recorderMethods(added), added);
                for (ToolSpec f : added) methods.add(f.name());
            }
            return repl.tools(functions);
        }

        @Override
        public List<Message.Tool> execute(
                List<ToolCall> calls, Message.Assistant message, YieldingLoop.ProtocolCalls protocol) {
            return repl.execute(calls, message, protocol);
        }
    }

    /** The working conversation and the loop that plays each turn in it; {@code repl} null for the JSON tools. */
    private static final class Loop implements MultiTurnInference.Player {
        private final Candidate model;
        private final int maxTurnSteps;
        private final YieldingLoop.Actions actions;
        private List<Message> working = new ArrayList<>();

        Loop(Candidate model, String systemPrompt, int maxTurnSteps, Repl repl) {
            this.model = model;
            this.maxTurnSteps = maxTurnSteps;
            this.actions = repl == null ? YieldingLoop.Actions.PROTOCOL_TOOLS : repl;
            if (systemPrompt != null) working.add(new Message.System(systemPrompt));
        }

        @Override
        public String heldOutMessage(List<ToolSpec> added) {
            if (actions == YieldingLoop.Actions.PROTOCOL_TOOLS) return MultiTurnInference.ADDITIONAL_FUNCTION_PROMPT;
            return "## New functions (Java methods)\n"
                    + JavaApi.recorderMethods(added).reference() + MultiTurnInference.ADDITIONAL_FUNCTION_PROMPT;
        }

        @Override
        public void turn(List<Message> turnMessages, List<ToolSpec> functions, MultiTurnInference.Steps steps)
                throws InfrastructureFailure {
            working.addAll(turnMessages);
            // Each call the actions hand over, decoded as upstream decodes a function call and executed at once.
            YieldingLoop.ProtocolCalls execute = callsMessage -> {
                List<String> decoded = MultiTurnInference.decode(callsMessage);
                List<Message.Tool> out = new ArrayList<>();
                for (int i = 0; i < decoded.size(); i++) {
                    ToolCall c = callsMessage.toolCalls().get(i);
                    out.add(new Message.Tool(c.id(), c.name(), steps.call(decoded.get(i)), false));
                }
                return out;
            };
            ToolExecutor executor = calls -> {
                try {
                    return actions.execute(calls, new Message.Assistant(null, calls), execute);
                } finally {
                    steps.endStep(); // the calls of one model step are one step
                }
            };
            Candidate guarded = (history, tools) -> {
                if (steps.forceQuit()) throw new ForceQuit(history);
                return model.next(history, tools);
            };
            Transcript t;
            try {
                t = new AgentLoop(maxTurnSteps, steps.budget())
                        .run(guarded, working, actions.tools(functions), executor);
            } catch (ForceQuit q) {
                working = new ArrayList<>(q.history);
                return;
            }
            working = new ArrayList<>(t.messages());
            switch (t.stop()) {
                case ANSWERED -> steps.answered();
                case MAX_STEPS -> {} // the turn ends unanswered
                case CELL_BUDGET -> steps.stoppedByBudget(); // the task ends: its last step's calls were not run
                case INFRASTRUCTURE_FAILURE ->
                    throw t.failure() != null
                            ? t.failure()
                            : new InfrastructureFailure("infrastructure failure", t.modelCalls(), null);
            }
        }

        @Override
        public List<Message> messages() {
            return List.copyOf(working);
        }
    }
}
