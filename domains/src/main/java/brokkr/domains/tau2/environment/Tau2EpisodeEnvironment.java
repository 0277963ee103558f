package brokkr.domains.tau2.environment;

import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.python.PyException;
import brokkr.python.PyJsonLoads;
import brokkr.python.PyOps;
import brokkr.python.PyRepr;
import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A tau2 domain's {@link Tau2Environment} seen as an {@link EpisodeEnvironment} over the pair of DB
 * values ({@link Worlds}). The calls of one step run on ONE {@code Tau2Environment} built around the
 * step's world, so {@code sync_tools} runs only where upstream's {@code get_response} runs it (after
 * each call that did not raise); building the environment runs it once more up front (upstream
 * {@code Environment.__init__}), a no-op on the already-synced worlds the orchestrator passes. The gold
 * replay likewise uses one environment for all gold actions, with no sync between them, as on upstream's
 * grader path.
 */
public final class Tau2EpisodeEnvironment implements EpisodeEnvironment<Worlds> {
    private final Tau2Toolkit agentKit;
    private final Tau2Toolkit userKit;
    private final UnaryOperator<Worlds> sync;
    private final BiFunction<TaskSpec, Value, Tau2Environment> fresh;
    private final List<ToolSpec> agentTools;
    private final Function<TaskSpec, List<ToolSpec>> userTools;
    private final UnaryOperator<Value> nextEpisode;

    /**
     * @param fresh     a fresh environment with the task's initial state applied
     * @param userKit   null for domains without user tools
     * @param sync      {@code sync_tools()}, null for identity
     * @param userTools the user simulator's tools for a task (empty list when none)
     */
    public Tau2EpisodeEnvironment(
            Tau2Toolkit agentKit,
            Tau2Toolkit userKit,
            UnaryOperator<Worlds> sync,
            Function<TaskSpec, Tau2Environment> fresh,
            Function<TaskSpec, List<ToolSpec>> userTools) {
        this(agentKit, userKit, sync, (task, process) -> fresh.apply(task), userTools);
    }

    /**
     * @param fresh a fresh environment with the task's initial state in a process whose state is the given
     *              session value (null: a fresh process)
     */
    public Tau2EpisodeEnvironment(
            Tau2Toolkit agentKit,
            Tau2Toolkit userKit,
            UnaryOperator<Worlds> sync,
            BiFunction<TaskSpec, Value, Tau2Environment> fresh,
            Function<TaskSpec, List<ToolSpec>> userTools) {
        this(agentKit, userKit, sync, fresh, userTools, UnaryOperator.identity());
    }

    /**
     * @param nextEpisode the session a recorded episode starts with after an earlier one's environments left
     *                    {@code session} ({@link #initialWorld(TaskSpec, Worlds)})
     */
    public Tau2EpisodeEnvironment(
            Tau2Toolkit agentKit,
            Tau2Toolkit userKit,
            UnaryOperator<Worlds> sync,
            BiFunction<TaskSpec, Value, Tau2Environment> fresh,
            Function<TaskSpec, List<ToolSpec>> userTools,
            UnaryOperator<Value> nextEpisode) {
        this.nextEpisode = nextEpisode;
        this.agentKit = agentKit;
        this.userKit = userKit;
        this.sync = sync == null ? UnaryOperator.identity() : sync;
        this.fresh = fresh;
        this.agentTools = toolSpecs(agentKit.openaiSchemas());
        this.userTools = userTools;
    }

    /** {@code ToolSpec}s from upstream's {@code openai_schema} dicts ({@code {"type": "function", "function": {...}}}). */
    public static List<ToolSpec> toolSpecs(List<Value> openaiSchemas) {
        List<ToolSpec> out = new ArrayList<>(openaiSchemas.size());
        for (Value v : openaiSchemas) {
            PyDict f = v.asDict().get("function").asDict();
            out.add(new ToolSpec(
                    f.get("name").asStr(),
                    f.get("description").asStr(),
                    f.get("parameters").asDict()));
        }
        return List.copyOf(out);
    }

    private Tau2Environment at(Worlds w) {
        return new Tau2Environment(agentKit, userKit, sync, w);
    }

    private static Worlds worlds(Tau2Environment e) {
        return e.worlds();
    }

    @Override
    public List<ToolSpec> agentTools() {
        return agentTools;
    }

    @Override
    public List<ToolSpec> userTools(TaskSpec task) {
        return userTools.apply(task);
    }

    @Override
    public Worlds initialWorld(TaskSpec task) {
        return worlds(fresh.apply(task, null));
    }

    @Override
    public Worlds initialWorld(TaskSpec task, Worlds previousEpisodeEnd) {
        Value session = previousEpisodeEnd == null || previousEpisodeEnd.session() == null
                ? null
                : nextEpisode.apply(previousEpisodeEnd.session());
        return worlds(fresh.apply(task, session));
    }

    @Override
    public Response<Worlds> respond(Worlds world, Requestor requestor, String name, PyDict arguments) {
        Tau2Environment e = at(world);
        Tau2Environment.ToolMessage m = e.getResponse(name, arguments, requestor.wire());
        return new Response<>(worlds(e), m.content(), m.error());
    }

    @Override
    public Step<Worlds> respondAll(Worlds world, Requestor requestor, List<Call> calls) {
        Tau2Environment e = at(world);
        List<Response<Worlds>> out = new ArrayList<>(calls.size());
        for (Call c : calls) {
            Tau2Environment.ToolMessage m = e.getResponse(c.name(), c.arguments(), requestor.wire());
            out.add(new Response<>(worlds(e), m.content(), m.error()));
        }
        return new Step<>(worlds(e), out);
    }

    @Override
    public Worlds sync(Worlds world) {
        return sync.apply(world);
    }

    @Override
    public GoldReplay<Worlds> goldReplay(TaskSpec task) {
        return goldReplay(task, (Worlds) null);
    }

    @Override
    public GoldReplay<Worlds> goldReplay(TaskSpec task, Worlds episodeEnd) {
        Tau2Environment e = fresh.apply(task, episodeEnd == null ? null : episodeEnd.session());
        List<String> errors = new ArrayList<>();
        List<GoldAction> gold =
                task.criteria() == null ? List.of() : task.criteria().actionsOrEmpty();
        for (GoldAction a : gold) {
            Tau2Environment.Result r =
                    e.makeToolCall(a.name(), a.arguments(), a.requestor().wire());
            if (r.error() != null) errors.add(a.name() + ": " + r.error().str());
        }
        return new GoldReplay<>(worlds(e), errors);
    }

    @Override
    public GradingReplay<Worlds> gradingReplay(TaskSpec task, Worlds sameProcessAs, List<RecordedCall> calls) {
        Tau2Environment e = fresh.apply(task, sameProcessAs == null ? null : sameProcessAs.session());
        List<String> differences = new ArrayList<>();
        int i = 0;
        for (RecordedCall c : calls) {
            i++;
            if (!e.hasTool(c.name()) || !e.isMutatingTool(c.name())) continue;
            Tau2Environment.ToolMessage m =
                    e.getResponse(c.name(), c.arguments(), c.requestor().wire());
            if (!PyOps.eq(loadsOrText(m.content()), loadsOrText(c.content()))) {
                differences.add("replayed call " + i + " (" + c.name() + ") returned "
                        + PyRepr.repr(new PyStr(m.content())) + ", the record has "
                        + PyRepr.repr(new PyStr(c.content() == null ? "None" : c.content())));
            }
        }
        e.syncTools();
        return new GradingReplay<>(worlds(e), differences);
    }

    /** {@code json.loads(content)}, or the text itself where that raises (set_state's comparison). */
    private static Value loadsOrText(String content) {
        if (content == null) return PyNone.NONE;
        try {
            return PyJsonLoads.loads(content);
        } catch (PyException x) {
            return new PyStr(content);
        }
    }

    @Override
    public String toolType(String name) {
        // get_tool_types(env.tools) then .update(get_tool_types(env.user_tools)): the user's entry wins.
        String user = userKit == null ? null : userKit.toolType(name);
        return user != null ? user : agentKit.toolType(name);
    }

    /**
     * {@code run_env_assertion(..., raise_assertion_error=False)} on the world. Where the assertion's
     * function raises (a device left in a state upstream's code cannot read, such as APN settings set to a
     * plain string), upstream's evaluation raises and its runner records an infrastructure error; here the
     * assertion is not met and the error is kept with it.
     */
    @Override
    public AssertionOutcome<Worlds> envAssertion(Worlds world, EnvAssertion assertion) {
        Tau2Environment e = at(world);
        try {
            boolean met = e.runEnvAssertion(assertion);
            return new AssertionOutcome<>(worlds(e), met);
        } catch (PyException x) {
            return new AssertionOutcome<>(worlds(e), false, x.pyType() + ": " + x.str());
        }
    }

    @Override
    public String dbHash(Worlds w) {
        return w.db() == null ? null : WorldHash.sha256(w.db(), true);
    }

    @Override
    public String userDbHash(Worlds w) {
        return userKit == null || w.userDb() == null ? null : WorldHash.sha256(w.userDb(), true);
    }
}
