package brokkr.sandbox;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks a value (as {@link MiniJson} parses it: maps, lists, strings, numbers, booleans, null) against a
 * result type written in the subset of JSON Schema Brokkr's tool result types use: {@code type} (a name or a
 * list of names: object, array, string, integer, number, boolean, null), {@code enum}, {@code const},
 * {@code properties}, {@code required}, {@code additionalProperties} (false or a type), {@code propertyNames}
 * ({@code pattern}), {@code items}, {@code oneOf}, {@code anyOf} and {@code $ref} to {@code #/$defs/NAME} of the
 * file the type comes from; {@code description} and {@code x-} keys are words for the reader. The answer is the first violation with its path ({@code $.items[2].price:
 * expected number, got string "12"}), or null when the value fits. Used by the harness (the schema test) and
 * meant for the sandbox too (a REPL's {@code check(type, value)}, issue 32), so it uses nothing but the JDK and
 * {@link MiniJson}.
 */
public final class TypeCheck {
    private TypeCheck() {}

    /** The first violation of {@code type} (with no {@code $ref}s) by {@code value}, or null when it fits. */
    public static String firstViolation(Map<?, ?> type, Object value) {
        return firstViolation(Map.of(), type, value);
    }

    /** As above, {@code $ref}s resolved in {@code defs} (a types file's {@code $defs}). */
    public static String firstViolation(Map<?, ?> defs, Map<?, ?> type, Object value) {
        return new TypeCheck.Run(defs).check(type, value, "$");
    }

    private record Run(Map<?, ?> defs) {
        String check(Map<?, ?> t, Object v, String path) {
            if (t.get("$ref") instanceof String ref) {
                String name = ref.startsWith("#/$defs/") ? ref.substring("#/$defs/".length()) : null;
                if (name == null || !(defs.get(name) instanceof Map<?, ?> target))
                    throw new IllegalArgumentException("unknown result type " + ref);
                return check(target, v, path);
            }
            return checkHere(t, v, path);
        }

        private String checkHere(Map<?, ?> t, Object v, String path) {
            Object types = t.get("type");
            if (types != null) {
                boolean fits = false;
                for (Object name : types instanceof List<?> l ? l : List.of(types)) fits |= is(String.valueOf(name), v);
                if (!fits) return path + ": expected " + typeWords(types) + ", got " + describe(v);
            }
            if (t.get("const") != null || t.containsKey("const")) {
                if (!same(t.get("const"), v))
                    return path + ": expected " + MiniJson.write(t.get("const")) + ", got " + describe(v);
            }
            if (t.get("enum") instanceof List<?> options) {
                boolean found = false;
                for (Object o : options) found |= same(o, v);
                if (!found) return path + ": expected one of " + MiniJson.write(options) + ", got " + describe(v);
            }
            Object alternatives = t.get("oneOf") != null ? t.get("oneOf") : t.get("anyOf");
            if (alternatives instanceof List<?> kinds) {
                // The kind the value went furthest into (the one its tag names, in a tagged union) says why it fails.
                String best = null;
                for (Object a : kinds) {
                    String why = check((Map<?, ?>) a, v, path);
                    if (why == null) return null;
                    if (best == null || depth(why, path) > depth(best, path)) best = why;
                }
                return best;
            }
            if (v instanceof Map<?, ?> m) return object(t, m, path);
            if (v instanceof List<?> l && t.get("items") instanceof Map<?, ?> items) {
                for (int i = 0; i < l.size(); i++) {
                    String why = check(items, l.get(i), path + "[" + i + "]");
                    if (why != null) return why;
                }
            }
            return null;
        }

        private String object(Map<?, ?> t, Map<?, ?> m, String path) {
            if (t.get("required") instanceof List<?> required) {
                for (Object k : required) if (!m.containsKey(k)) return path + ": missing key \"" + k + "\"";
            }
            Map<?, ?> properties = t.get("properties") instanceof Map<?, ?> p ? p : Map.of();
            Object additional = t.get("additionalProperties");
            Pattern names = t.get("propertyNames") instanceof Map<?, ?> pn && pn.get("pattern") instanceof String re
                    ? Pattern.compile(re)
                    : null;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = String.valueOf(e.getKey());
                String at =
                        path + (key.matches("[A-Za-z_][A-Za-z0-9_]*") ? "." + key : "[" + MiniJson.write(key) + "]");
                if (names != null && !names.matcher(key).matches())
                    return at + ": key \"" + key + "\" does not match " + names.pattern();
                if (properties.get(key) instanceof Map<?, ?> pt) {
                    String why = check(pt, e.getValue(), at);
                    if (why != null) return why;
                } else if (Boolean.FALSE.equals(additional)) {
                    return at + ": unexpected key \"" + key + "\" (keys: " + properties.keySet() + ")";
                } else if (additional instanceof Map<?, ?> at2) {
                    String why = check(at2, e.getValue(), at);
                    if (why != null) return why;
                }
            }
            return null;
        }
    }

    /** How far into the value a violation lies; a wrong tag or a key the kind does not have counts as not entered. */
    private static int depth(String violation, String path) {
        int colon = violation.indexOf(": ");
        String what = violation.substring(colon + 2);
        if (what.startsWith("unexpected key") || what.startsWith("expected \"")) return 0;
        return colon - path.length() + 1;
    }

    private static boolean is(String type, Object v) {
        return switch (type) {
            case "null" -> v == null;
            case "object" -> v instanceof Map;
            case "array" -> v instanceof List;
            case "string" -> v instanceof String;
            case "boolean" -> v instanceof Boolean;
            case "integer" -> v instanceof Integer || v instanceof Long || v instanceof BigInteger;
            case "number" -> v instanceof Number;
            default -> throw new IllegalArgumentException("unknown type name '" + type + "' in a result type");
        };
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            try {
                return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
            } catch (NumberFormatException nanOrInfinity) {
                return x.toString().equals(y.toString());
            }
        }
        return a == null ? b == null : a.equals(b);
    }

    private static String typeWords(Object types) {
        return types instanceof List<?> l
                ? String.join(" or ", l.stream().map(String::valueOf).toList())
                : String.valueOf(types);
    }

    private static String describe(Object v) {
        String kind = switch (v) {
            case null -> "null";
            case Map<?, ?> m -> "object";
            case List<?> l -> "array";
            case String s -> "string";
            case Boolean b -> "boolean";
            case Integer i -> "integer";
            case Long l -> "integer";
            case BigInteger b -> "integer";
            case Number n -> "number";
            default -> v.getClass().getSimpleName();
        };
        if (v == null || v instanceof Map || v instanceof List) return kind;
        String text = MiniJson.write(v);
        return kind + " " + (text.length() > 40 ? text.substring(0, 37) + "..." : text);
    }
}
