package brokkr.sandbox;

import java.util.Map;

/**
 * What snippet code in a sandbox calls to reach the harness: one tool call, answered by the
 * harness's {@link Sandbox.CallHandler} (which decides what a name means and refuses names it does not
 * know). The generated tool classes of a REPL action space call this; nothing else crosses over.
 */
public final class SandboxBridge {
    private SandboxBridge() {}

    /** Calls tool {@code name} with keyword arguments; returns its text result, throws on a refused call. */
    public static String call(String name, Map<String, Object> args) {
        return SandboxAgent.call(name, args);
    }

    /** JSON text as plain maps, lists, strings, numbers, booleans and nulls. */
    public static Object parse(String json) {
        return MiniJson.parse(json);
    }

    /** A value as JSON text. */
    public static String json(Object value) {
        return MiniJson.write(value);
    }

    /**
     * A compact summary of a value's structure: maps as {@code {key: shape, ...}}, lists as
     * {@code [n x shape-of-first]}, scalars by type; JSON text is parsed first. Deep or wide values are
     * cut ({@code ...}), so the summary of a large result stays short.
     */
    public static String shape(Object value) {
        if (value instanceof String s && (s.startsWith("{") || s.startsWith("["))) {
            try {
                value = MiniJson.parse(s);
            } catch (IllegalArgumentException e) {
                /* a string after all */
            }
        }
        StringBuilder b = new StringBuilder();
        shape(b, value, 0);
        return b.toString();
    }

    private static void shape(StringBuilder b, Object v, int depth) {
        switch (v) {
            case null -> b.append("null");
            case java.util.Map<?, ?> m -> {
                if (depth >= 4) {
                    b.append("{...}");
                    return;
                }
                b.append('{');
                int i = 0;
                for (var e : m.entrySet()) {
                    if (i > 0) b.append(", ");
                    if (i++ == 24) {
                        b.append("... ").append(m.size() - 24).append(" more");
                        break;
                    }
                    b.append(e.getKey()).append(": ");
                    shape(b, e.getValue(), depth + 1);
                }
                b.append('}');
            }
            case java.util.List<?> l -> {
                b.append('[').append(l.size());
                if (!l.isEmpty()) {
                    b.append(" x ");
                    if (depth >= 4) b.append("...");
                    else shape(b, l.getFirst(), depth + 1);
                }
                b.append(']');
            }
            case String s -> b.append("String");
            case Integer i -> b.append("Integer");
            case Long l -> b.append("Long");
            case Double d -> b.append("Double");
            case Boolean x -> b.append("Boolean");
            default -> b.append(v.getClass().getSimpleName());
        }
    }

    /** A map from alternating keys and values (nulls allowed, order kept): for keyword arguments. */
    public static java.util.Map<String, Object> map(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0)
            throw new IllegalArgumentException("map(...) takes keys and values in pairs");
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) m.put(String.valueOf(keysAndValues[i]), keysAndValues[i + 1]);
        return m;
    }

    /** A list of the values (nulls allowed). */
    public static java.util.List<Object> list(Object... values) {
        return new java.util.ArrayList<>(java.util.Arrays.asList(values));
    }
}
