package brokkr.domains.bfcl;

import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tool specs a function-calling model is given, as upstream builds them: the inference-time
 * function docs (utils.py {@code _func_doc_language_specific_pre_processing}: the Python-3 hint), then
 * {@code convert_to_tool(functions, GORILLA_TO_OPENAPI, style)} (model_handler/utils.py, with
 * {@code _cast_to_openai_type}; mapping in constants/type_mappings.py). Values are persistent, so
 * upstream's in-place edits become rebuilt dicts; a replaced key keeps its position and a new key goes
 * last, as in a Python dict.
 */
public final class ToolCompiler {
    private ToolCompiler() {}

    /** The compiled shapes reproduced (upstream ModelStyle). */
    public enum Style {
        OPENAI_COMPLETIONS,
        OPENAI_RESPONSES,
        ANTHROPIC
    }

    static final String PYTHON_HINT = " Note that the provided function is in Python 3 syntax.";

    /** constants/type_mappings.py GORILLA_TO_OPENAPI. */
    static final Map<String, String> GORILLA_TO_OPENAPI = Map.ofEntries(
            Map.entry("integer", "integer"),
            Map.entry("number", "number"),
            Map.entry("float", "number"),
            Map.entry("string", "string"),
            Map.entry("boolean", "boolean"),
            Map.entry("bool", "boolean"),
            Map.entry("array", "array"),
            Map.entry("list", "array"),
            Map.entry("dict", "object"),
            Map.entry("object", "object"),
            Map.entry("tuple", "array"),
            Map.entry("any", "string"),
            Map.entry("byte", "integer"),
            Map.entry("short", "integer"),
            Map.entry("long", "integer"),
            Map.entry("double", "number"),
            Map.entry("char", "string"),
            Map.entry("ArrayList", "array"),
            Map.entry("Array", "array"),
            Map.entry("HashMap", "object"),
            Map.entry("Hashtable", "object"),
            Map.entry("Queue", "array"),
            Map.entry("Stack", "array"),
            Map.entry("Any", "string"),
            Map.entry("String", "string"),
            Map.entry("Bigint", "integer"));

    /** The docs a model sees: each description with the Python-3 hint appended (Python categories only). */
    public static PyList modelFunctions(PyList checkerFunctions) {
        List<Value> out = new ArrayList<>(checkerFunctions.size());
        for (Value f : checkerFunctions) {
            PyDict d = f.asDict();
            out.add(d.with("description", new PyStr(str(d, "description") + PYTHON_HINT)));
        }
        return PyList.of(out);
    }

    /**
     * The docs a model sees for simple_java / simple_javascript (utils.py
     * _func_doc_language_specific_pre_processing, its is_java / is_js branches): the language hint, then
     * every parameter's type becomes "string" with its Java/JS type said in the description; list items
     * and (JS) dict properties are moved into the description and deleted.
     */
    public static PyList modelFunctions(PyList checkerFunctions, AstChecker.Language language) {
        if (language == AstChecker.Language.PYTHON) return modelFunctions(checkerFunctions);
        boolean java = language == AstChecker.Language.JAVA;
        String lang = java ? "Java" : "JavaScript";
        String hint = java
                ? " Note that the provided function is in Java 8 SDK syntax."
                : " Note that the provided function is in JavaScript syntax.";
        List<Value> out = new ArrayList<>(checkerFunctions.size());
        for (Value f : checkerFunctions) {
            PyDict d = f.asDict();
            d = d.with("description", new PyStr(str(d, "description") + hint));
            PyDict params = dict(d, "parameters");
            PyDict properties = dict(params, "properties");
            PyDict result = properties;
            for (Map.Entry<String, Value> e : properties.entries()) {
                PyDict v = e.getValue().asDict();
                String type = str(v, "type");
                String desc = str(v, "description")
                        + (type.equals("any")
                                ? " This parameter can be of any type of " + lang + " object in string representation."
                                : " This is " + lang + " " + type + " type parameter in string representation.");
                boolean list = java ? type.equals("ArrayList") || type.equals("Array") : type.equals("array");
                if (list) {
                    desc += " The list elements are of type " + str(dict(v, "items"), "type")
                            + "; they are not in string representation.";
                    v = v.with("description", new PyStr(desc)).without("items");
                } else {
                    v = v.with("description", new PyStr(desc));
                }
                if (!java && type.equals("dict") && v.containsKey("properties")) {
                    v = v.with(
                                    "description",
                                    new PyStr(desc
                                            + " The dictionary entries have the following schema; they are not in string representation. "
                                            + PyJson.dumps(v.get("properties"))))
                            .without("properties");
                }
                result = result.with(e.getKey(), v.with("type", new PyStr("string")));
            }
            out.add(d.with("parameters", params.with("properties", result)));
        }
        return PyList.of(out);
    }

    /** model_handler/utils.py convert_to_tool for {@code style}, from the model functions. */
    public static PyList compile(PyList modelFunctions, Style style) {
        List<Value> out = new ArrayList<>(modelFunctions.size());
        for (Value f : modelFunctions) {
            PyDict item = f.asDict();
            String name = str(item, "name");
            // "OAI does not support "." in the function name so we replace it with "_"".
            if (name.contains(".")) item = item.with("name", new PyStr(name.replace('.', '_')));
            PyDict params = dict(item, "parameters").with("type", new PyStr("object"));
            params = params.with("properties", castToOpenAiType(dict(params, "properties")));
            item = item.with("parameters", params);
            if (style == Style.ANTHROPIC)
                item = item.with("input_schema", params).without("parameters");
            if (item.containsKey("response") && style == Style.ANTHROPIC) {
                item = item.with(
                                "description",
                                new PyStr(str(item, "description") + " The response field has the following schema: "
                                        + PyJson.dumps(item.get("response"))))
                        .without("response");
            }
            out.add(
                    switch (style) {
                        case ANTHROPIC -> item;
                        case OPENAI_RESPONSES -> item.with("type", new PyStr("function"));
                        case OPENAI_COMPLETIONS ->
                            PyDict.builder()
                                    .put("type", new PyStr("function"))
                                    .put("function", item)
                                    .build();
                    });
        }
        return PyList.of(out);
    }

    /** model_handler/utils.py _cast_to_openai_type with GORILLA_TO_OPENAPI. */
    static PyDict castToOpenAiType(PyDict properties) {
        PyDict result = properties;
        for (Map.Entry<String, Value> e : properties.entries()) {
            PyDict p = e.getValue().asDict();
            if (!p.containsKey("type")) {
                p = p.with("type", new PyStr("string"));
            } else {
                String type = p.get("type").asStr();
                if (type.equals("float")) {
                    p = p.with("format", new PyStr("float"))
                            .with("description", new PyStr(str(p, "description") + " This is a float type value."));
                }
                p = p.with("type", new PyStr(GORILLA_TO_OPENAPI.getOrDefault(type, "string")));
            }
            String type = p.get("type").asStr();
            if (type.equals("array") || type.equals("object")) {
                if (p.containsKey("properties")) {
                    p = p.with("properties", castToOpenAiType(dict(p, "properties")));
                } else if (p.containsKey("items")) {
                    PyDict items = dict(p, "items");
                    items = items.with("type", new PyStr(strictMap(str(items, "type"))));
                    String itemType = items.get("type").asStr();
                    if (itemType.equals("array") && items.containsKey("items")) {
                        PyDict inner = dict(items, "items");
                        items = items.with("items", inner.with("type", new PyStr(strictMap(str(inner, "type")))));
                    } else if (itemType.equals("object") && items.containsKey("properties")) {
                        items = items.with("properties", castToOpenAiType(dict(items, "properties")));
                    }
                    p = p.with("items", items);
                }
            }
            result = result.with(e.getKey(), p);
        }
        return result;
    }

    /** {@code mapping[t]} where upstream indexes the mapping directly (a KeyError for an unknown type). */
    private static String strictMap(String type) {
        String t = GORILLA_TO_OPENAPI.get(type);
        if (t == null)
            throw new IllegalArgumentException("KeyError: '" + type + "' (items type outside GORILLA_TO_OPENAPI)");
        return t;
    }

    private static String str(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new IllegalArgumentException("KeyError: '" + k + "'");
        return v.asStr();
    }

    private static PyDict dict(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new IllegalArgumentException("KeyError: '" + k + "'");
        return v.asDict();
    }
}
