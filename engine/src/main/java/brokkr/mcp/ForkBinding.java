package brokkr.mcp;

import brokkr.agent.ToolResult;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.eval.AgentDef;
import brokkr.eval.AgentInterface;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evaluator;
import brokkr.eval.Evidence;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.ToolWorld;
import brokkr.eval.WorldSetup;
import brokkr.provider.ScriptedCandidate;
import brokkr.python.PyJson;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.WorldDiff;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A forked world of a task ({@link Exploration#fork}) as an MCP server serves it ({@code ./brokkr mcp serve}): the
 * domain's tools, each call made on the current fork, which then moves to the world after it, exactly as
 * {@code %call} does; and two tools of Brokkr's own. {@value #WORLD} answers the world's hash, what changed since
 * the fork and in the last call, and (asked for) the whole world; {@value #GRADE} grades the calls made so far as an
 * episode: the domain's own protocol and evaluator run with an agent that makes exactly these calls, in order, and
 * then says {@code answer}, the other roles (a user simulator, a judge) the domain's defaults.
 */
public final class ForkBinding implements WorldBinding {
    public static final String WORLD = "brokkr_world", GRADE = "brokkr_grade";
    static final String DEFAULT_ANSWER = "done";

    private static final ToolSpec WORLD_SPEC = new ToolSpec(
            WORLD,
            "Brokkr: the served world's sha256, what changed since the fork and in the last call (path, change, before,"
                    + " after), and with world=true the whole world.",
            PyDict.of(
                    "type",
                    "object",
                    "properties",
                    PyDict.of(
                            "world",
                            PyDict.of(
                                    "type",
                                    "boolean",
                                    "description",
                                    "include the whole world (large for a tau2 database)",
                                    "default",
                                    false))));
    private static final ToolSpec GRADE_SPEC = new ToolSpec(
            GRADE,
            "Brokkr: the domain's grade of the calls made so far as an episode in which the agent made exactly these"
                    + " calls, in order, and then said answer (a tau2 agent ends its episode with ###STOP###).",
            PyDict.of(
                    "type",
                    "object",
                    "properties",
                    PyDict.of(
                            "answer",
                            PyDict.of(
                                    "type",
                                    "string",
                                    "description",
                                    "the agent's last message",
                                    "default",
                                    DEFAULT_ANSWER))));

    private record Call(String tool, PyDict arguments) {}

    /** The scripted agent's name in a graded replay. */
    static final String REPLAY = "mcp-replay";

    /** The domain, with the replay as its scripted agent {@value #REPLAY}. */
    private record WithReplay(BenchmarkProvider domain, Candidate replay) implements BenchmarkProvider {
        @Override
        public String name() {
            return domain.name();
        }

        @Override
        public List<String> tasks(String split) {
            return domain.tasks(split);
        }

        @Override
        public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
            return domain.environment(taskId, models);
        }

        @Override
        public EnvironmentDef environment(String taskId, Map<String, ModelRef> models, PyDict options) {
            return domain.environment(taskId, models, options);
        }

        @Override
        public AgentInterface agentInterface() {
            return domain.agentInterface();
        }

        @Override
        public WorldSetup worldSetup() {
            return domain.worldSetup();
        }

        @Override
        public Protocol protocol() {
            return domain.protocol();
        }

        @Override
        public Evaluator evaluator() {
            return domain.evaluator();
        }

        @Override
        public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
            return role.equals(Evidence.AGENT) && model.model().equals(REPLAY)
                    ? replay
                    : domain.scripted(role, model, env);
        }

        @Override
        public Optional<Exploration> exploration() {
            return domain.exploration();
        }
    }

    private final BenchmarkProvider provider;
    private final Exploration exploration;
    private final String taskId;
    private final ToolWorld forked;
    private final List<ToolSpec> domainTools;
    private final List<Call> calls = new ArrayList<>();
    private ToolWorld world, before;

    /**
     * A fresh fork of {@code taskId} (null: the pristine world). IllegalArgumentException for an unknown task, a
     * domain without exploration, or one whose tools take Brokkr's own names; UnsupportedOperationException for a
     * domain without a world.
     */
    public ForkBinding(BenchmarkProvider provider, String taskId) {
        this.provider = provider;
        this.exploration = provider.exploration()
                .orElseThrow(() -> new IllegalArgumentException(
                        "domain " + provider.name() + " offers no world to fork (no exploration)"));
        this.taskId = taskId;
        this.forked = exploration.fork(taskId);
        this.world = forked;
        this.before = forked;
        this.domainTools = List.copyOf(forked.toolSpecs());
        for (ToolSpec t : domainTools)
            if (t.name().equals(WORLD) || t.name().equals(GRADE))
                throw new IllegalArgumentException(
                        "domain " + provider.name() + " has a tool named " + t.name() + ", which Brokkr serves itself");
    }

    /** The domain's tools, then {@value #WORLD} and {@value #GRADE}. */
    @Override
    public List<ToolSpec> tools() {
        List<ToolSpec> out = new ArrayList<>(domainTools);
        out.add(WORLD_SPEC);
        out.add(GRADE_SPEC);
        return out;
    }

    /** The domain's tools as its forks carry them. */
    public List<ToolSpec> domainTools() {
        return domainTools;
    }

    /** The current fork. */
    public synchronized ToolWorld world() {
        return world;
    }

    @Override
    public synchronized ToolResult call(String tool, PyDict arguments) {
        if (tool.equals(WORLD)) return ToolResult.ok(worldReport(arguments.get("world") == PyBool.TRUE));
        if (tool.equals(GRADE)) return grade(arguments.get("answer") instanceof PyStr s ? s.value() : DEFAULT_ANSWER);
        ToolWorld.Step step = world.call(tool, arguments);
        calls.add(new Call(tool, arguments));
        before = world;
        world = step.after();
        return step.result();
    }

    private String worldReport(boolean whole) {
        PyDict.Builder b = PyDict.builder()
                .put("domain", provider.name())
                .put("task", taskId == null ? PyNone.NONE : Value.str(taskId))
                .put("calls", calls.size())
                .put("world_sha256", WorldHash.sha256(world.state(), true))
                .put("changes_since_fork", changes(forked.state(), world.state()))
                .put("changes_last_call", changes(before.state(), world.state()));
        if (whole) b.put("world", world.state());
        return PyJson.dumps(b.build());
    }

    private static PyList changes(Value a, Value b) {
        List<Value> out = new ArrayList<>();
        for (WorldDiff.Change c : WorldDiff.diff(a, b)) {
            out.add(PyDict.of(
                    "path",
                    c.path(),
                    "change",
                    c.kind().name().toLowerCase(java.util.Locale.ROOT),
                    "before",
                    c.before() == null ? PyNone.NONE : c.before(),
                    "after",
                    c.after() == null ? PyNone.NONE : c.after()));
        }
        return PyList.of(out);
    }

    /**
     * The episode of these calls on the evaluation path: a fresh world of the task, the domain's protocol with an
     * agent that replays the calls (one per step, whatever the protocol asks between them) and then says
     * {@code answer} to every further turn, graded by the domain's evaluator.
     */
    private ToolResult grade(String answer) {
        if (taskId == null) return ToolResult.error("the pristine world has no task to grade against");
        List<Call> replayed = List.copyOf(calls);
        ScriptedCandidate agent = ScriptedCandidate.of((history, tools) -> {
            int made = 0;
            for (Message m : history)
                if (m instanceof Message.Assistant a) made += a.toolCalls().size();
            if (made < replayed.size()) {
                Call c = replayed.get(made);
                return ScriptedCandidate.calls(ScriptedCandidate.call(c.tool(), c.arguments()));
            }
            return ScriptedCandidate.say(answer);
        });
        EnvironmentDef env = provider.environment(taskId, Map.of());
        // The replay is a scripted agent (it calls no model), and a domain plays its scripted roles (tau2's scripted
        // user) only opposite scripted agents: the domain is asked for every scripted model but this one.
        AgentDef def = new AgentDef(BenchmarkProvider.SCRIPTED, REPLAY, "tools", PyDict.empty(), null);
        // Through the one runner, as every face runs a cell.
        Plan plan = new Plan(
                List.of(new Plan.Unit(new Evaluation.Cell(new WithReplay(provider, agent), env, def, null, 0), REPLAY)),
                ref -> {
                    throw new IllegalStateException("a graded replay calls no model (asked for " + ref + ")");
                });
        Attempt a = Runner.attempts(plan, Policy.of(1)).getFirst();
        if (!a.completed()) return ToolResult.error("no grade: " + a.error());
        Exploration.RunReport report = exploration.report(a);
        List<Value> checks = new ArrayList<>();
        for (Exploration.CheckLine c : report.checks())
            checks.add(PyDict.of("check", c.name(), "passed", c.passed(), "detail", c.detail()));
        return ToolResult.ok(PyJson.dumps(PyDict.of(
                "reward",
                a.reward(),
                "result",
                report.resultLine(),
                "checks",
                PyList.of(checks),
                "calls_replayed",
                replayed.size(),
                "graded_as",
                "an episode of " + provider.name() + " task " + taskId
                        + " in which the agent made exactly the calls made here, in order, then said "
                        + PyJson.dumps(Value.str(answer)) + "; the other roles the domain's defaults")));
    }
}
