package brokkr.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A result type ({@link TypeCheck}'s JSON Schema subset) as a person reads it in a tool's doc: records as
 * {@code {name: String, price?: Number}} ({@code ?}: may be absent), maps keyed by ids as
 * {@code Map<id, variant>}, lists as {@code List<...>}, unions as {@code A | B}, nullable as {@code String?}, a
 * named type by its name ({@code $ref}); its descriptions as {@code // ...} lines after. JDK only, so the sandbox
 * renders the same text ({@code types()}).
 */
public final class TypeText {
    private TypeText() {}

    /** One line for {@code type} (named types by name), then one {@code //} line per field description. */
    public static String render(Map<?, ?> type) {
        StringBuilder notes = new StringBuilder();
        String line = text(type, "", notes);
        return notes.isEmpty() ? line : line + notes;
    }

    /**
     * {@code type} rendered, then every named type it uses (transitively, each once) as {@code name = ...}: what a
     * tool's doc says it returns.
     */
    public static String withDefinitions(Map<?, ?> defs, Map<?, ?> type) {
        StringBuilder out = new StringBuilder(render(type));
        java.util.Set<String> done = new java.util.LinkedHashSet<>();
        java.util.Deque<String> todo = new java.util.ArrayDeque<>(refs(type));
        while (!todo.isEmpty()) {
            String name = todo.poll();
            if (!done.add(name) || !(defs.get(name) instanceof Map<?, ?> def)) continue;
            out.append('\n').append(name).append(" = ").append(render(def));
            todo.addAll(refs(def));
        }
        return out.toString();
    }

    /** The named types a type refers to, in order. */
    static List<String> refs(Object t) {
        List<String> out = new ArrayList<>();
        if (t instanceof Map<?, ?> m) {
            if (m.get("$ref") instanceof String ref) out.add(ref.substring(ref.lastIndexOf('/') + 1));
            for (Object v : m.values()) out.addAll(refs(v));
        } else if (t instanceof List<?> l) for (Object v : l) out.addAll(refs(v));
        return out;
    }

    private static String text(Map<?, ?> t, String at, StringBuilder notes) {
        if (t.get("description") instanceof String d && !at.isEmpty())
            notes.append("\n  // ").append(at).append(": ").append(d);
        if (t.get("$ref") instanceof String ref) return ref.substring(ref.lastIndexOf('/') + 1);
        Object alternatives = t.get("oneOf") != null ? t.get("oneOf") : t.get("anyOf");
        if (alternatives instanceof List<?> kinds) {
            List<String> parts = new ArrayList<>();
            for (Object k : kinds) parts.add(text((Map<?, ?>) k, "", notes));
            return String.join(" | ", parts);
        }
        if (t.containsKey("const")) return MiniJson.write(t.get("const"));
        if (t.get("enum") instanceof List<?> options)
            return String.join(" | ", options.stream().map(MiniJson::write).toList());
        List<?> types =
                t.get("type") instanceof List<?> l ? l : t.get("type") == null ? List.of() : List.of(t.get("type"));
        boolean nullable = types.contains("null");
        String base = types.stream()
                .filter(x -> !"null".equals(x))
                .map(String::valueOf)
                .findFirst()
                .orElse(nullable ? "null" : "Object");
        String shown = switch (base) {
            case "object" -> object(t, at, notes);
            case "array" ->
                "List<"
                        + (t.get("items") instanceof Map<?, ?> items && !items.isEmpty()
                                ? text(items, at + "[]", notes)
                                : "Object")
                        + ">";
            case "string" -> "String";
            case "integer" -> "Integer";
            case "number" -> "Number";
            case "boolean" -> "Boolean";
            default -> base;
        };
        return nullable && !base.equals("null") ? shown + "?" : shown;
    }

    private static String object(Map<?, ?> t, String at, StringBuilder notes) {
        if (t.get("properties") instanceof Map<?, ?> props) {
            List<?> required = t.get("required") instanceof List<?> r ? r : List.of();
            List<String> fields = new ArrayList<>();
            for (Map.Entry<?, ?> e : props.entrySet()) {
                String name = String.valueOf(e.getKey());
                String path = at.isEmpty() ? name : at + "." + name;
                fields.add((name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : MiniJson.write(name))
                        + (required.contains(e.getKey()) ? "" : "?") + ": "
                        + text((Map<?, ?>) e.getValue(), path, notes));
            }
            return "{" + String.join(", ", fields) + "}";
        }
        if (t.get("additionalProperties") instanceof Map<?, ?> values) {
            String key = t.get("x-keyed-by") instanceof String k ? k : "String";
            return "Map<" + key + ", " + text(values, at + "[" + key + "]", notes) + ">";
        }
        return "Map<String, Object>";
    }
}
