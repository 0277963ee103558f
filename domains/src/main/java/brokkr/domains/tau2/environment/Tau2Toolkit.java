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
 * @param className     the toolkit's Python class name (for messages such as binding errors)
 * @param modelResults  tools whose results are pydantic models or lists of models
 * @param functions     methods that are not tools ({@code set_user_info}, {@code assert_*}, ...)
 * @param sessionScoped whether the functions see {@code {"db": <the DB>, "session": <the session>}}
 *                      ({@link #scoped}) instead of the DB alone
 */
public record Tau2Toolkit(String className, List<ToolDef> defs, Set<String> modelResults, List<ToolSchema.ToolDoc> docs,
                          List<ToolDef> functions, boolean sessionScoped) {
    /** Keys of a session-scoped toolkit's world value. */
    public static final String DB = "db", SESSION = "session";

    public Tau2Toolkit {
        defs = List.copyOf(defs);
        modelResults = Set.copyOf(modelResults);
        docs = List.copyOf(docs);
        functions = List.copyOf(functions);
    }

    /** A toolkit whose methods are its tools, on its DB alone (retail, airline). */
    public Tau2Toolkit(String className, List<ToolDef> defs, Set<String> modelResults, List<ToolSchema.ToolDoc> docs) {
        this(className, defs, modelResults, docs, List.of(), false);
    }

    public ToolSet toolSet() { return new ToolSet(defs); }

    /** Every method reachable by {@code getattr(toolkit, name)}: the tools and the other functions. */
    public ToolSet functionSet() {
        List<ToolDef> all = new ArrayList<>(defs);
        all.addAll(functions);
        return new ToolSet(all);
    }

    /** The world value a session-scoped toolkit's functions work on. */
    public static PyDict scoped(Value db, Value session) { return PyDict.of(DB, db, SESSION, session); }

    /** {@code [t.openai_schema for t in env.get_tools()]}. */
    public List<Value> openaiSchemas() {
        return docs.stream().map(ToolSchema::openaiSchema).toList();
    }
}
