package brokkr.domains.tau2.environment;

import brokkr.tool.ToolDef;
import brokkr.tool.ToolSet;
import java.util.List;
import java.util.Set;

/**
 * A tau2 {@code ToolKitBase}: its tools (upstream order, as {@code get_tools()} lists them), which of
 * them return pydantic models (their result values are {@code model_dump()}s, which
 * {@code Environment.to_json_str} does not stringify further), and their documentation for schemas.
 *
 * @param className    the toolkit's Python class name (for messages such as binding errors)
 * @param modelResults tools whose results are pydantic models or lists of models
 */
public record Tau2Toolkit(String className, List<ToolDef> defs, Set<String> modelResults, List<ToolSchema.ToolDoc> docs) {
    public Tau2Toolkit {
        defs = List.copyOf(defs);
        modelResults = Set.copyOf(modelResults);
        docs = List.copyOf(docs);
    }

    public ToolSet toolSet() { return new ToolSet(defs); }

    /** {@code [t.openai_schema for t in env.get_tools()]}. */
    public List<brokkr.value.Value> openaiSchemas() {
        return docs.stream().map(ToolSchema::openaiSchema).toList();
    }
}
