package brokkr.provider;

import brokkr.conversation.ToolCall;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;

/** Reading helpers shared by the wire formats: lenient lookups and the tool-call argument rule. */
public final class Wire {
    private Wire() {}

    /** Compact-enough, deterministic JSON text: CPython's {@code json.dumps} defaults (see {@link PyJson}). */
    static String json(Value v) {
        return PyJson.dumps(v);
    }

    static PyDict dict(Value v) {
        return v instanceof PyDict d ? d : null;
    }

    static PyList list(Value v) {
        return v instanceof PyList l ? l : null;
    }

    static String str(Value v) {
        return v instanceof PyStr s ? s.value() : null;
    }

    static Value at(PyDict d, String key) {
        return d == null ? null : d.get(key);
    }

    static long count(PyDict d, String key) {
        return at(d, key) instanceof PyInt i && i.fitsLong() ? i.longValue() : 0;
    }

    /** JSON's name for a value's type, for messages about the model's output. */
    static String jsonType(Value v) {
        return switch (v) {
            case null -> "missing value";
            case PyDict d -> "object";
            case PyList l -> "array";
            case PyStr s -> "string";
            case brokkr.value.PyBool b -> "boolean";
            case brokkr.value.PyNone n -> "null";
            case PyInt i -> "number";
            case brokkr.value.PyFloat f -> "number";
        };
    }

    /**
     * A tool call from its argument text. Valid JSON naming an object gives the arguments; anything
     * else keeps the text and says why in {@code malformed}. Blank text counts as {@code {}}: llama.cpp
     * and several vLLM tool parsers send {@code ""} for a function without parameters, and treating
     * that as the model's error would punish the server's serializer, not the model.
     */
    public static ToolCall fromArgumentText(String id, String name, String text) {
        if (name == null || name.isEmpty())
            return new ToolCall(id, name == null ? "" : name, PyDict.empty(), text, "tool call has no function name");
        if (text == null) return new ToolCall(id, name, PyDict.empty(), null, "tool call has no arguments");
        if (text.isBlank()) return new ToolCall(id, name, PyDict.empty(), text, null);
        Value parsed;
        try {
            parsed = Json.parse(text);
        } catch (Json.JsonFormatException e) {
            return new ToolCall(
                    id,
                    name,
                    PyDict.empty(),
                    text,
                    "arguments are not valid JSON: "
                            + e.getMessage().lines().findFirst().orElse(""));
        }
        if (parsed instanceof PyDict d) return new ToolCall(id, name, d, text, null);
        return new ToolCall(
                id, name, PyDict.empty(), text, "arguments are a JSON " + jsonType(parsed) + ", not an object");
    }

    /** A tool call whose arguments arrived as a JSON value (Anthropic's {@code input}, Ollama's object arguments). */
    public static ToolCall fromArgumentValue(String id, String name, Value args) {
        String raw = args == null ? null : json(args);
        if (name == null || name.isEmpty())
            return new ToolCall(id, name == null ? "" : name, PyDict.empty(), raw, "tool call has no function name");
        if (args instanceof PyDict d) return new ToolCall(id, name, d, raw, null);
        return new ToolCall(
                id,
                name,
                PyDict.empty(),
                raw,
                args == null
                        ? "tool call has no arguments"
                        : "arguments are a JSON " + jsonType(args) + ", not an object");
    }

    /** The first {@code max} characters, for error messages. */
    public static String clip(String s, int max) {
        if (s == null) return "";
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
