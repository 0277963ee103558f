package brokkr.domains.tau2.environment;

import brokkr.tool.Param;
import brokkr.tool.ToolDef;
import brokkr.tool.ToolFunction;
import brokkr.tool.ToolSet;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * the DB alone; {@code genericTools} the tools decorated {@code @is_tool(ToolType.GENERIC)}, which each
 * domain declares for its own toolkit. A domain builds its toolkit with {@link #builder}: its tools from
 * their docs (upstream order) and bodies by name.
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
    private final Set<String> genericTools;
    // Built once: every environment (one per episode step) dispatches through them.
    private final ToolSet toolSet;
    private final ToolSet functionSet;

    /**
     * @param sharesAgentDb a user toolkit working on the agent's DB object itself (banking_knowledge:
     *                      {@code KnowledgeUserTools(db)} gets the same {@code TransactionalDB}), so every
     *                      write of either side, partial ones included, is seen by both
     */
    private Tau2Toolkit(
            String className,
            List<ToolDef> defs,
            Set<String> modelResults,
            List<ToolSchema.ToolDoc> docs,
            List<ToolDef> functions,
            boolean sessionScoped,
            boolean sharesAgentDb,
            Set<String> genericTools) {
        this.sharesAgentDb = sharesAgentDb;
        this.genericTools = Set.copyOf(genericTools);
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

    /** The toolkit of Python class {@code className} whose tools are documented by {@code docs}, in upstream order. */
    public static Builder builder(String className, List<ToolSchema.ToolDoc> docs) {
        return new Builder(className, docs);
    }

    /**
     * Builds a toolkit: one tool per doc, in the docs' order, named {@code <class>.<tool>} (unless
     * {@link #qualifiedName} says otherwise), its parameters the doc's (required, or optional with the
     * doc's default), its body the one given for its name; every doc needs a body and every body a doc.
     */
    public static final class Builder {
        private final String className;
        private final List<ToolSchema.ToolDoc> docs;
        private Map<String, ToolFunction> bodies = Map.of();
        private Set<String> mutating = Set.of(), generic = Set.of(), modelResults = Set.of();
        private final Map<String, String> qualifiedNames = new HashMap<>();
        private List<ToolDef> extraTools = List.of(), functions = List.of();
        private boolean sessionScoped, sharesAgentDb;

        private Builder(String className, List<ToolSchema.ToolDoc> docs) {
            this.className = className;
            this.docs = List.copyOf(docs);
        }

        /** The tools' bodies by name. */
        public Builder bodies(Map<String, ToolFunction> bodies) {
            this.bodies = Map.copyOf(bodies);
            return this;
        }
        /** The tools whose upstream {@code mutates_state} is true. */
        public Builder mutating(Set<String> names) {
            this.mutating = Set.copyOf(names);
            return this;
        }
        /** The tools decorated {@code @is_tool(ToolType.GENERIC)} ({@link Tau2Toolkit#toolType}). */
        public Builder generic(Set<String> names) {
            this.generic = Set.copyOf(names);
            return this;
        }
        /** The tools whose results are pydantic models or lists of them. */
        public Builder modelResults(Set<String> names) {
            this.modelResults = Set.copyOf(names);
            return this;
        }
        /** A tool defined on another class (a mixin's), as Python names it in messages. */
        public Builder qualifiedName(String tool, String qualified) {
            qualifiedNames.put(tool, qualified);
            return this;
        }
        /** Tools of the class without a doc of their own, after the documented ones. */
        public Builder extraTools(List<ToolDef> defs) {
            this.extraTools = List.copyOf(defs);
            return this;
        }
        /** The class's methods that are not tools. */
        public Builder functions(List<ToolDef> defs) {
            this.functions = List.copyOf(defs);
            return this;
        }
        /** Its functions see the DB and the session ({@link Tau2Toolkit#scoped}). */
        public Builder sessionScoped() {
            this.sessionScoped = true;
            return this;
        }
        /** A user toolkit on the agent's DB object itself. */
        public Builder sharesAgentDb() {
            this.sharesAgentDb = true;
            return this;
        }

        public Tau2Toolkit build() {
            List<ToolDef> defs = new ArrayList<>();
            for (ToolSchema.ToolDoc doc : docs) {
                ToolFunction body = bodies.get(doc.name());
                if (body == null) throw new IllegalStateException("no body for " + doc.name());
                List<Param> params = doc.params().stream()
                        .map(p -> p.dflt() == null ? Param.required(p.name()) : Param.optional(p.name(), p.dflt()))
                        .toList();
                defs.add(new ToolDef(
                        doc.name(),
                        qualifiedNames.getOrDefault(doc.name(), className + "." + doc.name()),
                        params,
                        body,
                        mutating.contains(doc.name())));
            }
            if (defs.size() != bodies.size()) throw new IllegalStateException("tool docs and bodies differ");
            defs.addAll(extraTools);
            return new Tau2Toolkit(
                    className, defs, modelResults, docs, functions, sessionScoped, sharesAgentDb, generic);
        }
    }

    public String className() {
        return className;
    }

    public List<ToolDef> defs() {
        return defs;
    }

    public Set<String> modelResults() {
        return modelResults;
    }

    public List<ToolSchema.ToolDoc> docs() {
        return docs;
    }

    public List<ToolDef> functions() {
        return functions;
    }

    public boolean sessionScoped() {
        return sessionScoped;
    }

    public boolean sharesAgentDb() {
        return sharesAgentDb;
    }

    public ToolSet toolSet() {
        return toolSet;
    }

    /** Every method reachable by {@code getattr(toolkit, name)}: the tools and the other functions. */
    public ToolSet functionSet() {
        return functionSet;
    }

    /** The world value a session-scoped toolkit's functions work on. */
    public static PyDict scoped(Value db, Value session) {
        return PyDict.of(DB, db, SESSION, session);
    }

    /**
     * Upstream {@code ToolKitBase.tool_type(name)} ({@code src/tau2/environment/toolkit.py}): the
     * {@code ToolType} of the tool's {@code @is_tool} decorator, {@code "read"}, {@code "write"} or
     * {@code "generic"}, or null for a name that is not one of its tools. The transcribed domains declare
     * every WRITE tool with the default {@code mutates_state} (so WRITE is exactly "mutates") and declare
     * their GENERIC ones ({@link Builder#generic}; banking_knowledge's two of them change the world: which
     * tools are unlocked or given); everything else is READ.
     */
    public String toolType(String name) {
        if (!toolSet.has(name)) return null;
        if (genericTools.contains(name)) return "generic";
        return toolSet.get(name).mutates() ? "write" : "read";
    }

    /** {@code [t.openai_schema for t in env.get_tools()]}. */
    public List<Value> openaiSchemas() {
        return docs.stream().map(ToolSchema::openaiSchema).toList();
    }
}
