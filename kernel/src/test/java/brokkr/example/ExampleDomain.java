package brokkr.example;

import brokkr.agent.AgentLoop;
import brokkr.agent.ToolExecutor;
import brokkr.agent.ToolHandler;
import brokkr.agent.ToolResult;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Exploration;
import brokkr.eval.Interaction;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.ToolWorld;
import brokkr.eval.Transcripts;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldSetup;
import brokkr.provider.ScriptedCandidate;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The smallest complete domain, the one ARCHITECTURE.md points at. It is registered by one line,
 * {@code brokkr.example.ExampleDomain} in {@code META-INF/services/brokkr.eval.BenchmarkProvider}, and
 * nothing else: experiments, {@code %domain load example} and {@code %run} all find it there.
 *
 * <p>Task {@code N} (split {@code test}: 1, 2, 3): raise a counter from 0 to N with the tool
 * {@code add(amount)}, then answer {@code done}. The world is {@code {"counter": int}}, a value: a call
 * yields the next world. Graded on the final world and the answer. Scripted candidates
 * ({@code provider: scripted}): {@code counter} (adds 1, N times) and {@code idle} (answers at once).
 * A domain this small can be its own {@link Exploration}.
 */
public final class ExampleDomain implements BenchmarkProvider, Exploration {
    static final List<String> TASKS = List.of("1", "2", "3");
    static final String TOOL = "add";
    static final ToolSpec ADD = new ToolSpec(
            TOOL,
            "Adds amount to the counter and returns its new value.",
            PyDict.of(
                    "type",
                    "object",
                    "properties",
                    PyDict.of("amount", PyDict.of("type", "integer")),
                    "required",
                    PyList.of(Value.str("amount"))));
    static final Value START = PyDict.of("counter", 0);

    /** How many were made in this JVM: the one-registry test reads it (each registry that loads services makes one). */
    static final java.util.concurrent.atomic.AtomicInteger INSTANCES = new java.util.concurrent.atomic.AtomicInteger();

    public ExampleDomain() {
        INSTANCES.incrementAndGet();
    }

    @Override
    public String name() {
        return "example";
    }

    private static int target(String taskId) {
        if (!TASKS.contains(taskId))
            throw new IllegalArgumentException("no example task '" + taskId + "' (tasks: 1, 2, 3)");
        return Integer.parseInt(taskId);
    }

    private static String prompt(int target) {
        return "Raise the counter from 0 to " + target + " with add, then answer done.";
    }

    // ---------------------------------------------------------------- the evaluation path

    @Override
    public List<String> tasks(String split) {
        if (!split.equals("test")) throw new IllegalArgumentException("unknown split '" + split + "' (one of test)");
        return TASKS;
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        target(taskId);
        return new EnvironmentDef(name(), "example-1", Map.of(), taskId, Map.of(), null);
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            fork.set(START);
            return PyDict.of("initial_world_sha256", WorldHash.sha256(START, true));
        };
    }

    /** The agent loop on the run's fork: each call of {@code add} replaces the fork's world with the next one. */
    @Override
    public Protocol protocol() {
        return ctx -> {
            int n = target(ctx.env().taskId());
            ToolHandler add = call -> {
                ToolWorld.Step s = new Counter(ctx.world().get()).call(call.name(), call.arguments());
                ctx.world().set(s.after().state());
                return s.result();
            };
            Transcript t = new AgentLoop(n + 5)
                    .run(
                            ctx.candidate(),
                            List.of(new Message.System(prompt(n)), new Message.User("go")),
                            List.of(ADD),
                            ToolExecutor.sequential(add));
            if (t.failure() != null) throw t.failure(); // not the candidate's fault: recorded, never graded
            String answer = t.finalAnswer();
            return new Interaction(
                    Transcripts.toValue(t.messages()),
                    PyDict.of("answer", answer == null ? PyNone.NONE : Value.str(answer)),
                    t.stop().name().toLowerCase());
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            long counter = ((PyInt) run.finalWorld().asDict().get("counter")).longValue();
            boolean reached = counter == target(run.env().taskId());
            boolean done = Value.str("done").equals(run.interaction().output().get("answer"));
            return new Verdict(
                    List.of(new Check("counter_reached_target", reached), new Check("said_done", done)),
                    reached && done ? 1.0 : 0.0,
                    TrustTier.DETERMINISTIC,
                    PyDict.of("counter", counter));
        };
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent")) throw new IllegalArgumentException("example has no scripted " + role);
        int n = target(env.taskId());
        return switch (model.model()) {
            case "counter" ->
                ScriptedCandidate.of(ScriptedCandidate.replay(
                        Collections.nCopies(n, ScriptedCandidate.calls(ScriptedCandidate.call(TOOL, "amount", 1))),
                        ScriptedCandidate.say("done")));
            case "idle" -> ScriptedCandidate.of((history, tools) -> ScriptedCandidate.say("done"));
            default ->
                throw new IllegalArgumentException(
                        "unknown example candidate '" + model.model() + "' (one of counter, idle)");
        };
    }

    // ---------------------------------------------------------------- exploration

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(this);
    }

    @Override
    public Summary summary() {
        return new Summary(
                "raise a counter to N with add(amount)",
                TASKS.size(),
                Map.of("test", TASKS.size()),
                List.of(TOOL),
                0,
                List.of());
    }

    @Override
    public List<TaskRow> tasks() {
        return TASKS.stream()
                .map(id -> new TaskRow(
                        id,
                        List.of("test"),
                        "raise the counter from 0 to " + id,
                        "counter_reached_target, said_done",
                        target(id)))
                .toList();
    }

    @Override
    public TaskDetail task(String taskId) {
        int n = target(taskId);
        return new TaskDetail(
                taskId,
                prompt(n),
                "counter_reached_target, said_done",
                Collections.nCopies(n, TOOL + "(amount=1)"),
                WorldHash.sha256(START, true));
    }

    @Override
    public ToolWorld fork(String taskId) {
        if (taskId != null) target(taskId);
        return new Counter(START);
    }

    @Override
    public List<String> candidates() {
        return List.of("counter", "idle");
    }

    /** The world and its one tool, as pure functions of the world value: shared by forks and the protocol. */
    record Counter(Value state) implements ToolWorld {
        @Override
        public List<String> tools() {
            return List.of(TOOL);
        }

        @Override
        public List<ToolSpec> toolSpecs() {
            return List.of(ADD);
        }

        @Override
        public Step call(String tool, PyDict args) {
            if (!tool.equals(TOOL)) return new Step(ToolResult.error("unknown tool '" + tool + "'"), this);
            if (!(args.get("amount") instanceof PyInt amount))
                return new Step(ToolResult.error("amount must be an integer"), this);
            long next = ((PyInt) state.asDict().get("counter")).longValue() + amount.longValue();
            return new Step(
                    ToolResult.ok("counter=" + next), new Counter(state.asDict().with("counter", PyInt.of(next))));
        }
    }
}
