package brokkr.tool;

import brokkr.sandbox.MiniJson;
import brokkr.sandbox.TypeCheck;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * A domain's tool result types, one file per domain ({@code result-types.json} beside its data: {@code $defs}
 * for the entities several tools return, {@code tools} by {@code requestor/name}), in the JSON Schema subset
 * {@link TypeCheck} reads. What a REPL candidate may be told about a tool's result before it looks at one, and
 * what the schema test holds every recorded result to, so the types cannot drift from the transcription.
 */
public record ResultTypes(Map<?, ?> defs, Map<?, ?> tools) {
    /** The types in the resource {@code path} (loaded by {@code owner}'s class loader); an error names a missing or bad file. */
    public static ResultTypes resource(Class<?> owner, String path) {
        try (InputStream in = owner.getResourceAsStream(path)) {
            if (in == null) throw new IllegalArgumentException("no result types at " + path);
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), path);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read result types " + path, e);
        }
    }

    /** The types in a file's text; {@code source} names it in errors. */
    public static ResultTypes parse(String text, String source) {
        Object v;
        try {
            v = MiniJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("result types " + source + " are not JSON: " + e.getMessage(), e);
        }
        if (!(v instanceof Map<?, ?> file) || !(file.get("tools") instanceof Map<?, ?> tools))
            throw new IllegalArgumentException("result types " + source + " have no 'tools' object");
        Map<?, ?> defs = file.get("$defs") instanceof Map<?, ?> d ? d : Map.of();
        return new ResultTypes(defs, tools);
    }

    /** The tools that have a type ({@code requestor/name}). */
    @SuppressWarnings("unchecked")
    public Set<String> toolNames() {
        return (Set<String>) tools.keySet();
    }

    /** The type of a tool's result, or null for a tool without one. */
    public Map<?, ?> type(String requestor, String tool) {
        return tools.get(requestor + "/" + tool) instanceof Map<?, ?> t ? t : null;
    }

    /**
     * The first way a result (its text, parsed as the REPL's {@code parse} reads it; a text that is not JSON stays
     * text) violates the tool's type, or null when it fits. IllegalArgumentException for a tool without a type.
     */
    public String check(String requestor, String tool, String resultText) {
        Map<?, ?> t = type(requestor, tool);
        if (t == null) throw new IllegalArgumentException("no result type for " + requestor + "/" + tool);
        return TypeCheck.firstViolation(defs, t, value(resultText));
    }

    /** A result text as the REPL's {@code parse} reads it, or the text itself when it is not JSON. */
    public static Object value(String resultText) {
        try {
            return MiniJson.parse(resultText);
        } catch (IllegalArgumentException notJson) {
            return resultText;
        }
    }
}
