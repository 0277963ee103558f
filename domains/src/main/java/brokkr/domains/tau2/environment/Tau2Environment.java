package brokkr.domains.tau2.environment;

import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.python.PyException;
import brokkr.python.PyJson;
import brokkr.python.PyRepr;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolSet;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import brokkr.world.WorldHash;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * tau2's {@code Environment} (src/tau2/environment/environment.py) over immutable worlds: the agent
 * toolkit's DB value and, when the domain has one, the user toolkit's DB value.
 *
 * <p>{@link #getResponse} reproduces {@code Environment.get_response}: the keyword collisions of
 * {@code make_tool_call(tool_name, requestor=..., **arguments)}, dispatch by requestor, the unknown
 * tool text of {@code ToolKitBase.use_tool}, {@code sync_tools()} only after a call that did not
 * raise, {@code "Error: " + str(e)} for any exception, and {@code to_json_str} of the result.
 * {@link #runEnvFunctionCall} and {@link #runEnvAssertion} are upstream's initialization actions and
 * env assertions: any method of a toolkit, then {@code sync_tools()}.
 *
 * <p>A domain may keep state that upstream holds outside its DBs (telecom: the draft-bill id draws, the
 * class-level VPN details) in the worlds' {@code session}: its session-scoped toolkits see it beside
 * their DB ({@link Tau2Toolkit#sessionScoped}); it is never hashed.
 */
public final class Tau2Environment {
    /** The result of {@code get_response}: {@code ToolMessage.content} and {@code ToolMessage.error}. */
    public record ToolMessage(String content, boolean error) {}

    private final Tau2Toolkit agentKit;
    private final ToolSet agentTools;
    private final Tau2Toolkit userKit;
    private final ToolSet userTools;
    private final UnaryOperator<Worlds> sync;
    private final ToolSet agentFunctions;
    private final ToolSet userFunctions;
    private Value db;
    private Value userDb;
    private Value session;

    /**
     * Both DB values, as {@code sync_tools} sees them, and the domain's session state (null when it has
     * none): what an environment holds between calls.
     */
    public record Worlds(Value db, Value userDb, Value session) {
        public Worlds(Value db, Value userDb) {
            this(db, userDb, null);
        }
    }

    /**
     * A {@code sync_tools()} that raised after writing part of its effects, with the worlds as they were at
     * the raise (upstream mutates in place, so the writes before the raise stay).
     */
    public static final class SyncRaised extends PyException {
        private final transient Worlds partial;

        public SyncRaised(PyException cause, Worlds partial) {
            super(cause.pyType(), cause.str());
            this.partial = partial;
        }

        public Worlds partial() {
            return partial;
        }
    }

    /**
     * @param agentKit the assistant's toolkit (never null for tau2 domains)
     * @param db       its DB value, in {@code model_dump()} shape
     * @param userKit  the user's toolkit, or null for domains without user tools
     * @param userDb   its DB value, or null
     * @param sync     {@code sync_tools()}; {@code UnaryOperator.identity()} when the domain has none
     */
    public Tau2Environment(
            Tau2Toolkit agentKit, Value db, Tau2Toolkit userKit, Value userDb, UnaryOperator<Worlds> sync) {
        this(agentKit, userKit, sync, new Worlds(db, userDb, null));
    }

    /**
     * @param worlds the DB values and the session ({@code Worlds.session} null for domains without one)
     * @throws PyException when {@code Environment.__init__}'s {@code sync_tools()} raises
     */
    public Tau2Environment(Tau2Toolkit agentKit, Tau2Toolkit userKit, UnaryOperator<Worlds> sync, Worlds worlds) {
        this.agentKit = agentKit;
        this.agentTools = agentKit == null ? null : agentKit.toolSet();
        this.agentFunctions = agentKit == null ? null : agentKit.functionSet();
        this.userKit = userKit;
        this.userTools = userKit == null ? null : userKit.toolSet();
        this.userFunctions = userKit == null ? null : userKit.functionSet();
        this.sync = sync == null ? UnaryOperator.identity() : sync;
        this.db = worlds.db();
        this.userDb = userKit != null && userKit.sharesAgentDb() ? worlds.db() : worlds.userDb();
        this.session = worlds.session();
        PyException e = trySync(); // Environment.__init__ calls sync_tools()
        if (e != null) throw e;
    }

    public static Tau2Environment agentOnly(Tau2Toolkit kit, Value db) {
        return new Tau2Environment(kit, db, null, null, null);
    }

    public Value db() {
        return db;
    }

    public Value userDb() {
        return userDb;
    }

    public Value session() {
        return session;
    }

    public Worlds worlds() {
        return new Worlds(db, userDb, session);
    }

    public Tau2Toolkit agentToolkit() {
        return agentKit;
    }

    public Tau2Toolkit userToolkit() {
        return userKit;
    }

    /** {@code Environment.get_db_hash()}: null without an agent toolkit. */
    public String dbHash() {
        return agentKit == null ? null : WorldHash.sha256(db, true);
    }

    /** {@code Environment.get_user_db_hash()}: null without a user toolkit. */
    public String userDbHash() {
        return userKit == null ? null : WorldHash.sha256(userDb, true);
    }

    /** {@code Environment._has_tool}: a tool of the agent's or the user's toolkit, whichever the requestor. */
    public boolean hasTool(String name) {
        return (agentTools != null && agentTools.has(name)) || (userTools != null && userTools.has(name));
    }

    /** {@code Environment._is_mutating_tool}: the tool's {@code mutates_state}, True for unknown names. */
    public boolean isMutatingTool(String name) {
        if (agentTools != null && agentTools.has(name))
            return agentTools.get(name).mutates();
        if (userTools != null && userTools.has(name)) return userTools.get(name).mutates();
        return true;
    }

    /** {@code Environment.get_response(ToolCall(name=name, arguments=arguments, requestor=requestor))}. */
    public ToolMessage getResponse(String name, PyDict arguments, String requestor) {
        Result r = makeToolCall(name, arguments, requestor);
        // sync_tools() runs inside get_response's try: when it raises, the call's answer is that error.
        PyException e = r.error() != null ? r.error() : trySync();
        if (e == null) return new ToolMessage(toJsonStr(r.value(), r.model()), false);
        return new ToolMessage("Error: " + e.str(), true);
    }

    /** A call's outcome without {@code sync_tools}: a value (and whether it is a model dump) or the exception. */
    public record Result(Value value, boolean model, PyException error) {}

    /**
     * {@code Environment.make_tool_call(name, requestor=requestor, **arguments)} (no {@code sync_tools}),
     * as the grader's gold environment uses it. The world keeps the writes made before an exception.
     */
    public Result makeToolCall(String name, PyDict arguments, String requestor) {
        // The call site merges requestor=... with **arguments first (CPython: "got multiple values for
        // keyword argument"), then binding to make_tool_call(self, tool_name, requestor, **kwargs).
        if (arguments.containsKey("requestor")) {
            return err(PyException.typeError(
                    "Environment.make_tool_call() got multiple values for keyword argument 'requestor'"));
        }
        for (String k : arguments.keys()) {
            if (k.equals("self") || k.equals("tool_name")) {
                return err(PyException.typeError(
                        "Environment.make_tool_call() got multiple values for argument '" + k + "'"));
            }
        }
        boolean user;
        if ("user".equals(requestor)) {
            if (userTools == null) return err(PyException.valueError("User tools not available"));
            user = true;
        } else if ("assistant".equals(requestor)) {
            if (agentTools == null) return err(PyException.valueError("Tools not available"));
            user = false;
        } else {
            return err(PyException.valueError("Invalid requestor: " + requestor));
        }
        ToolSet tools = user ? userTools : agentTools;
        Tau2Toolkit kit = user ? userKit : agentKit;
        ToolDef def = tools.get(name);
        if (def == null) return err(PyException.valueError("Tool '" + name + "' not found."));
        ToolSet.Outcome out = dispatch(tools, kit, user, name, arguments);
        return switch (out) {
            case ToolSet.Outcome.Ok ok ->
                new Result(ok.result(), kit.modelResults().contains(name), null);
            case ToolSet.Outcome.Failed f -> err(f.error());
            case ToolSet.Outcome.Unknown u -> err(PyException.valueError("Tool '" + name + "' not found."));
        };
    }

    private static Result err(PyException e) {
        return new Result(null, false, e);
    }

    /** Runs a function of a toolkit on its DB (and the session, for a session-scoped kit), keeping the world it leaves. */
    private ToolSet.Outcome dispatch(ToolSet functions, Tau2Toolkit kit, boolean user, String name, PyDict arguments) {
        boolean shared = userKit != null && userKit.sharesAgentDb();
        Value kitDb = user && !shared ? userDb : db;
        ToolSet.Outcome out =
                functions.dispatch(kit.sessionScoped() ? Tau2Toolkit.scoped(kitDb, session) : kitDb, name, arguments);
        Value w = out.world();
        if (kit.sessionScoped()) {
            session = w.asDict().get(Tau2Toolkit.SESSION);
            w = w.asDict().get(Tau2Toolkit.DB);
        }
        if (shared) db = userDb = w;
        else if (user) userDb = w;
        else db = w;
        return out;
    }

    /** {@code sync_tools()}; the exception it raised (its partial writes kept), or null. */
    private PyException trySync() {
        try {
            set(sync.apply(worlds()));
            return null;
        } catch (SyncRaised e) {
            set(e.partial());
            return e;
        } catch (PyException e) {
            return e;
        }
    }

    private void set(Worlds w) {
        db = w.db();
        userDb = w.userDb();
        session = w.session();
    }

    /** {@code Environment.sync_tools()}, as {@code set_state} calls it last; raises what it raises (its partial writes kept). */
    public void syncTools() {
        PyException e = trySync();
        if (e != null) throw e;
    }

    /**
     * {@code Environment.run_env_function_call}: {@code getattr(toolkit, func_name)(**arguments)} on the
     * {@code "user"} or {@code "assistant"} toolkit (any of its methods, not only tools), then
     * {@code sync_tools()}. Raises what the function or the sync raises (the writes before it stay).
     */
    public Value runEnvFunctionCall(String envType, String funcName, PyDict arguments) {
        boolean user;
        if ("user".equals(envType)) user = true;
        else if ("assistant".equals(envType)) user = false;
        else throw PyException.valueError("Invalid environment type: " + envType);
        Tau2Toolkit kit = user ? userKit : agentKit;
        ToolSet functions = user ? userFunctions : agentFunctions;
        if (kit == null) throw PyException.attributeError("'NoneType' object has no attribute '" + funcName + "'");
        if (!functions.has(funcName)) {
            throw PyException.attributeError("'" + kit.className() + "' object has no attribute '" + funcName + "'");
        }
        Value result = switch (dispatch(functions, kit, user, funcName, arguments)) {
            case ToolSet.Outcome.Ok ok -> ok.result();
            case ToolSet.Outcome.Failed f -> throw f.error();
            case ToolSet.Outcome.Unknown u -> throw new IllegalStateException("no function " + funcName);
        };
        PyException e = trySync();
        if (e != null) throw e;
        return result;
    }

    /**
     * {@code Environment.run_env_assertion(assertion, raise_assertion_error=False)}: whether the function's
     * bool equals {@code assert_value}; a non-bool result is upstream's {@code ValueError}.
     */
    public boolean runEnvAssertion(EnvAssertion a) {
        Value res = runEnvFunctionCall(a.envType().wire(), a.funcName(), a.arguments());
        if (!(res instanceof PyBool b)) {
            throw PyException.valueError(
                    "Function " + a.funcName() + " returned <class '" + res.typeName() + "'> instead of bool");
        }
        return b.value() == a.assertValue();
    }

    /**
     * {@code Environment.to_json_str}: a str is returned unchanged; otherwise {@code json.dumps(_process(resp),
     * default=str)}, where {@code _process} leaves model dumps alone and turns int/float/bool into
     * {@code str(x)} inside plain lists and dicts.
     */
    public static String toJsonStr(Value resp, boolean modelDump) {
        if (resp instanceof PyStr s) return s.value();
        return PyJson.dumps(modelDump ? resp : process(resp));
    }

    /** {@code to_json_str._process} for plain Python values. */
    public static Value process(Value v) {
        return switch (v) {
            case PyStr s -> s;
            case PyNone n -> n;
            case PyInt i -> new PyStr(PyRepr.str(i));
            case PyFloat f -> new PyStr(PyRepr.str(f));
            case PyBool b -> new PyStr(PyRepr.str(b));
            case PyList l -> PyList.of(l.stream().map(Tau2Environment::process).toList());
            case PyDict d -> {
                PyDict.Builder b = PyDict.builder();
                for (Map.Entry<String, Value> e : d.entries()) b.put(e.getKey(), process(e.getValue()));
                yield b.build();
            }
        };
    }
}
