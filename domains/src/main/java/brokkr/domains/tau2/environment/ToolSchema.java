package brokkr.domains.tau2.environment;

import brokkr.python.PydanticSchema;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code Tool.openai_schema} (src/tau2/environment/tool.py): the function name, the docstring's
 * description ({@code short + "\n\n" + long} when the docstring has a long part), and
 * {@code create_model("parameters", ...).model_json_schema()} with pydantic's key sorting.
 */
public final class ToolSchema {
    private ToolSchema() {}

    /**
     * A parameter: its name, its docstring description (null if undocumented), its type's JSON schema,
     * and its default (null: required; a parameter with a default is not in {@code required}).
     */
    public record ParamDoc(String name, String description, PyDict typeSchema, Value dflt) {
        public ParamDoc(String name, String description, PyDict typeSchema) {
            this(name, description, typeSchema, null);
        }
    }

    /**
     * A tool's documentation: docstring short and long descriptions (long may be null), and the
     * {@code $defs} of the models its parameter types refer to (null when none).
     */
    public record ToolDoc(String name, String shortDesc, String longDesc, List<ParamDoc> params, PyDict defs) {
        public ToolDoc {
            params = List.copyOf(params);
        }

        public ToolDoc(String name, String shortDesc, String longDesc, List<ParamDoc> params) {
            this(name, shortDesc, longDesc, params, null);
        }
        /** {@code Tool._get_description}. */
        public String description() {
            if (shortDesc == null || shortDesc.isEmpty()) return name;
            if (longDesc == null || longDesc.isEmpty()) return shortDesc;
            return shortDesc + "\n\n" + longDesc;
        }
    }

    public static final PyDict STRING = PyDict.of("type", "string");
    public static final PyDict INTEGER = PyDict.of("type", "integer");
    public static final PyDict NUMBER = PyDict.of("type", "number");
    public static final PyDict BOOLEAN = PyDict.of("type", "boolean");

    public static PyDict arrayOf(PyDict items) {
        return PyDict.of("items", items, "type", "array");
    }

    /** The {@code openai_schema} dict, keys in pydantic's order. */
    public static Value openaiSchema(ToolDoc doc) {
        PyDict.Builder props = PyDict.builder();
        List<Value> required = new ArrayList<>();
        for (ParamDoc p : doc.params()) {
            PyDict.Builder prop = PyDict.builder();
            if (p.dflt() != null) prop.put("default", p.dflt());
            if (p.description() != null) prop.put("description", new PyStr(p.description()));
            for (Map.Entry<String, Value> e : p.typeSchema().entries()) prop.put(e.getKey(), e.getValue());
            prop.put("title", new PyStr(title(p.name())));
            props.put(p.name(), sortKeys(prop.build()));
            if (p.dflt() == null) required.add(new PyStr(p.name()));
        }
        PyDict.Builder params = PyDict.builder();
        if (doc.defs() != null) params.put("$defs", doc.defs());
        params.put("properties", props.build());
        if (!required.isEmpty()) params.put("required", PyList.of(required));
        params.put("title", new PyStr("parameters"));
        params.put("type", new PyStr("object"));
        return PyDict.of(
                "type",
                "function",
                "function",
                PyDict.of("name", doc.name(), "description", doc.description(), "parameters", params.build()));
    }

    /** pydantic's {@code GenerateJsonSchema} sorts schema keys (recursively; list items keep their own order). */
    static PyDict sortKeys(PyDict d) {
        List<String> keys = new ArrayList<>(d.keys());
        keys.sort(brokkr.python.PyStrings::compare);
        PyDict.Builder b = PyDict.builder();
        for (String k : keys) {
            Value v = d.get(k);
            b.put(k, v instanceof PyDict sub ? sortKeys(sub) : v);
        }
        return b.build();
    }

    /** pydantic's default field title ({@link PydanticSchema#fieldTitle}). */
    public static String title(String name) {
        return PydanticSchema.fieldTitle(name);
    }
}
