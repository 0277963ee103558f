package brokkr.domains.tau2.environment;

import brokkr.python.PyException;
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
 */
public final class Tau2Environment {
    /** The result of {@code get_response}: {@code ToolMessage.content} and {@code ToolMessage.error}. */
    public record ToolMessage(String content, boolean error) {}

    private final Tau2Toolkit agentKit;
    private final ToolSet agentTools;
    private final Tau2Toolkit userKit;
    private final ToolSet userTools;
    private final UnaryOperator<Worlds> sync;
    private Value db;
    private Value userDb;

    /** Both DB values, as {@code sync_tools} sees them. */
    public record Worlds(Value db, Value userDb) {}

    /**
     * @param agentKit the assistant's toolkit (never null for tau2 domains)
     * @param db       its DB value, in {@code model_dump()} shape
     * @param userKit  the user's toolkit, or null for domains without user tools
     * @param userDb   its DB value, or null
     * @param sync     {@code sync_tools()}; {@code UnaryOperator.identity()} when the domain has none
     */
    public Tau2Environment(Tau2Toolkit agentKit, Value db, Tau2Toolkit userKit, Value userDb, UnaryOperator<Worlds> sync) {
        this.agentKit = agentKit;
        this.agentTools = agentKit == null ? null : agentKit.toolSet();
        this.userKit = userKit;
        this.userTools = userKit == null ? null : userKit.toolSet();
        this.sync = sync == null ? UnaryOperator.identity() : sync;
        this.db = db;
        this.userDb = userDb;
        doSync(); // Environment.__init__ calls sync_tools()
    }

    public static Tau2Environment agentOnly(Tau2Toolkit kit, Value db) {
        return new Tau2Environment(kit, db, null, null, null);
    }

    public Value db() { return db; }
    public Value userDb() { return userDb; }
    public Tau2Toolkit agentToolkit() { return agentKit; }
    public Tau2Toolkit userToolkit() { return userKit; }

    /** {@code Environment.get_db_hash()}: null without an agent toolkit. */
    public String dbHash() { return agentKit == null ? null : WorldHash.sha256(db, true); }

    /** {@code Environment.get_user_db_hash()}: null without a user toolkit. */
    public String userDbHash() { return userKit == null ? null : WorldHash.sha256(userDb, true); }

    /** {@code Environment._is_mutating_tool}: the tool's {@code mutates_state}, True for unknown names. */
    public boolean isMutatingTool(String name) {
        if (agentTools != null && agentTools.has(name)) return agentTools.get(name).mutates();
        if (userTools != null && userTools.has(name)) return userTools.get(name).mutates();
        return true;
    }

    /** {@code Environment.get_response(ToolCall(name=name, arguments=arguments, requestor=requestor))}. */
    public ToolMessage getResponse(String name, PyDict arguments, String requestor) {
        Result r = makeToolCall(name, arguments, requestor);
        if (r.error() == null) {
            doSync();
            return new ToolMessage(toJsonStr(r.value(), r.model()), false);
        }
        return new ToolMessage("Error: " + r.error().str(), true);
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
                return err(PyException.typeError("Environment.make_tool_call() got multiple values for argument '" + k + "'"));
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
        ToolSet.Outcome out = tools.dispatch(user ? userDb : db, name, arguments);
        if (user) userDb = out.world(); else db = out.world();
        return switch (out) {
            case ToolSet.Outcome.Ok ok -> new Result(ok.result(), kit.modelResults().contains(name), null);
            case ToolSet.Outcome.Failed f -> err(f.error());
            case ToolSet.Outcome.Unknown u -> err(PyException.valueError("Tool '" + name + "' not found."));
        };
    }

    private static Result err(PyException e) { return new Result(null, false, e); }

    private void doSync() {
        Worlds w = sync.apply(new Worlds(db, userDb));
        db = w.db();
        userDb = w.userDb();
    }

    /**
     * {@code Environment.to_json_str}: a str is returned unchanged; otherwise {@code json.dumps(_process(resp),
     * default=str)}, where {@code _process} leaves model dumps alone and turns int/float/bool into
     * {@code str(x)} inside plain lists and dicts.
     */
    public static String toJsonStr(Value resp, boolean modelDump) {
        if (resp instanceof PyStr s) return s.value();
        return brokkr.python.PyJson.dumps(modelDump ? resp : process(resp));
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
