package brokkr.domains.tau2.environment;

import brokkr.tool.ToolDef;
import brokkr.tool.ToolSet;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A tau2 {@code ToolKitBase}: its tools (upstream order, as {@code get_tools()} lists them), which of
 * them return pydantic models (their result values are {@code model_dump()}s, which
 * {@code Environment.to_json_str} does not stringify further), their documentation for schemas, and
 * the toolkit's other methods that initialization actions and env assertions call by name.
 *
 * <p>The class name is the toolkit's Python class name (for messages such as binding errors);
 * {@code modelResults} the tools whose results are pydantic models or lists of models; {@code functions}
 * the methods that are not tools ({@code set_user_info}, {@code assert_*}, ...); a {@code sessionScoped}
 * toolkit's functions see {@code {"db": <the DB>, "session": <the session>}} ({@link #scoped}) instead of
 * the DB alone.
 */
public final class Tau2Toolkit {
    /** Keys of a session-scoped toolkit's world value. */
    public static final String DB = "db", SESSION = "session";

    private final String className;
    private final List<ToolDef> defs;
    private final Set<String> modelResults;
    private final List<ToolSchema.ToolDoc> docs;
    private final List<ToolDef> functions;
    private final boolean sessionScoped;
    private final boolean sharesAgentDb;
    // Built once: every environment (one per episode step) dispatches through them.
    private final ToolSet toolSet;
    private final ToolSet functionSet;

    public Tau2Toolkit(String className, List<ToolDef> defs, Set<String> modelResults, List<ToolSchema.ToolDoc> docs,
                       List<ToolDef> functions, boolean sessionScoped) {
        this(className, defs, modelResults, docs, functions, sessionScoped, false);
    }

    /**
     * @param sharesAgentDb a user toolkit working on the agent's DB object itself (banking_knowledge:
     *                      {@code KnowledgeUserTools(db)} gets the same {@code TransactionalDB}), so every
     *                      write of either side, partial ones included, is seen by both
     */
    public Tau2Toolkit(String className, List<ToolDef> defs, Set<String> modelResults, List<ToolSchema.ToolDoc> docs,
                       List<ToolDef> functions, boolean sessionScoped, boolean sharesAgentDb) {
        this.sharesAgentDb = sharesAgentDb;
        this.className = className;
        this.defs = List.copyOf(defs);
        this.modelResults = Set.copyOf(modelResults);
        this.docs = List.copyOf(docs);
        this.functions = List.copyOf(functions);
        this.sessionScoped = sessionScoped;
        this.toolSet = new ToolSet(this.defs);
        List<ToolDef> all = new ArrayList<>(this.defs);
        all.addAll(this.functions);
        this.functionSet = new ToolSet(all);
    }

    /** A toolkit whose methods are its tools, on its DB alone (retail, airline). */
    public Tau2Toolkit(String className, List<ToolDef> defs, Set<String> modelResults, List<ToolSchema.ToolDoc> docs) {
        this(className, defs, modelResults, docs, List.of(), false);
    }

    public String className() { return className; }
    public List<ToolDef> defs() { return defs; }
    public Set<String> modelResults() { return modelResults; }
    public List<ToolSchema.ToolDoc> docs() { return docs; }
    public List<ToolDef> functions() { return functions; }
    public boolean sessionScoped() { return sessionScoped; }
    public boolean sharesAgentDb() { return sharesAgentDb; }

    public ToolSet toolSet() { return toolSet; }

    /** Every method reachable by {@code getattr(toolkit, name)}: the tools and the other functions. */
    public ToolSet functionSet() { return functionSet; }

    /** The world value a session-scoped toolkit's functions work on. */
    public static PyDict scoped(Value db, Value session) { return PyDict.of(DB, db, SESSION, session); }

    /**
     * Upstream {@code ToolKitBase.tool_type(name)} ({@code src/tau2/environment/toolkit.py}): the
     * {@code ToolType} of the tool's {@code @is_tool} decorator, {@code "read"}, {@code "write"} or
     * {@code "generic"}, or null for a name that is not one of its tools. The transcribed domains declare
     * every WRITE tool with the default {@code mutates_state} (so WRITE is exactly "mutates") and the
     * {@link #GENERIC_TOOLS} GENERIC (banking_knowledge's two of them change the world: which tools are
     * unlocked or given); everything else is READ.
     */
    public String toolType(String name) {
        if (!toolSet.has(name)) return null;
        if (GENERIC_TOOLS.contains(name)) return "generic";
        return toolSet.get(name).mutates() ? "write" : "read";
    }

    /**
     * Tools decorated {@code @is_tool(ToolType.GENERIC)} at the pinned commit: {@code calculate} and
     * {@code transfer_to_human_agents} (retail, airline, telecom, banking_knowledge), and banking_knowledge's
     * {@code unlock_discoverable_agent_tool} and {@code give_discoverable_user_tool} ({@code tools.py}).
     */
    private static final Set<String> GENERIC_TOOLS = Set.of("calculate", "transfer_to_human_agents", "unlock_discoverable_agent_tool",
            "give_discoverable_user_tool");

    /** {@code [t.openai_schema for t in env.get_tools()]}. */
    public List<Value> openaiSchemas() {
        return docs.stream().map(ToolSchema::openaiSchema).toList();
    }
}
