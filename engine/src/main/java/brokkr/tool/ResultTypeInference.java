package brokkr.tool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Drafts a tool's result type from the results it was seen to return (values as {@link brokkr.sandbox.MiniJson}
 * parses them), in the JSON Schema subset {@link brokkr.sandbox.TypeCheck} reads. A draft, to be curated by hand
 * where the data underdetermines it: objects whose keys are ids (retail's variants keyed by item id, an order's
 * payment history) become maps of one described value type, as do objects whose keys vary far more than any one
 * of them has (retail's item options: each product type names its own), objects told apart by a string field
 * whose values name different key sets (payment methods by {@code source}) become a union on that field, a field
 * absent from some observations optional, and a value seen null nullable. No enums: which strings form a closed
 * set (an order's status) is for the curator, since a fuzz corpus writes any string the tools accept (an address's
 * country). Deterministic: the same observations give the same text (properties in first-seen order).
 */
public final class ResultTypeInference {
    private ResultTypeInference() {}

    /** Keys that are ids, not field names: digits, {@code #W123}, {@code name_surname_123}, {@code credit_card_123}. */
    private static final Pattern ID_KEY = Pattern.compile("#?[A-Z]*\\d{3,}|[a-z]+(_[a-z]+)*_\\d{3,}|[A-Z0-9]{5,}");
    /** At most this many values of a string field tell the kinds of a union apart. */
    private static final int TAGS_MAX = 8;
    /** Keys vary like a map's when all of them together are this many times what one object has on average. */
    private static final int VARYING_KEYS = 3;

    /** The draft type of every value in {@code observed}. */
    public static Map<String, Object> infer(Collection<?> observed) {
        boolean nullable = false;
        List<Map<?, ?>> objects = new ArrayList<>();
        List<List<?>> arrays = new ArrayList<>();
        List<String> strings = new ArrayList<>();
        boolean integers = false, floats = false, booleans = false;
        for (Object v : observed) {
            switch (v) {
                case null -> nullable = true;
                case Map<?, ?> m -> objects.add(m);
                case List<?> l -> arrays.add(l);
                case String s -> strings.add(s);
                case Boolean b -> booleans = true;
                case Integer i -> integers = true;
                case Long l -> integers = true;
                case java.math.BigInteger b -> integers = true;
                case Number n -> floats = true;
                default ->
                    throw new IllegalArgumentException(
                            "not a JSON value: " + v.getClass().getName());
            }
        }
        List<Map<String, Object>> kinds = new ArrayList<>();
        if (!objects.isEmpty()) kinds.add(object(objects));
        if (!arrays.isEmpty()) {
            List<Object> elements = new ArrayList<>();
            for (List<?> l : arrays) elements.addAll(l);
            Map<String, Object> a = type("array");
            a.put("items", elements.isEmpty() ? Map.of() : infer(elements));
            kinds.add(a);
        }
        if (!strings.isEmpty()) kinds.add(type("string"));
        if (floats) kinds.add(type("number")); // an integer where a float is seen is a number too (Python's 1 vs 1.0)
        else if (integers) kinds.add(type("integer"));
        if (booleans) kinds.add(type("boolean"));
        if (kinds.isEmpty()) return nullable ? type("null") : new LinkedHashMap<>();
        Map<String, Object> out;
        if (kinds.size() == 1) out = kinds.getFirst();
        else {
            out = new LinkedHashMap<>();
            out.put("anyOf", kinds);
        }
        return nullable ? nullable(out) : out;
    }

    private static Map<String, Object> nullable(Map<String, Object> t) {
        if (t.get("type") instanceof String name && !t.containsKey("enum")) {
            Map<String, Object> out = new LinkedHashMap<>(t);
            out.put("type", List.of(name, "null"));
            return out;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> kinds = new ArrayList<>();
        if (t.get("anyOf") instanceof List<?> already && t.size() == 1) kinds.addAll(already); // one union, not nested
        else kinds.add(t);
        kinds.add(type("null"));
        out.put("anyOf", kinds);
        return out;
    }

    private static Map<String, Object> object(List<Map<?, ?>> objects) {
        boolean ids = idKeyed(objects);
        if (ids || varyingKeys(objects)) {
            List<Object> values = new ArrayList<>();
            for (Map<?, ?> m : objects) values.addAll(m.values());
            Map<String, Object> t = type("object");
            t.put("x-keyed-by", ids ? "id" : "name");
            t.put("additionalProperties", values.isEmpty() ? Map.of() : infer(values));
            return t;
        }
        String tag = discriminator(objects);
        if (tag != null) {
            Map<Object, List<Map<?, ?>>> byTag = new LinkedHashMap<>();
            for (Map<?, ?> m : objects)
                byTag.computeIfAbsent(m.get(tag), k -> new ArrayList<>()).add(m);
            List<Map<String, Object>> alternatives = new ArrayList<>();
            for (var e : byTag.entrySet()) {
                Map<String, Object> alt = record(e.getValue());
                @SuppressWarnings("unchecked")
                Map<String, Object> props = (Map<String, Object>) alt.get("properties");
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("const", e.getKey());
                props.put(tag, c);
                alternatives.add(alt);
            }
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("x-discriminator", tag);
            t.put("oneOf", alternatives);
            return t;
        }
        return record(objects);
    }

    /** Plain records: every key a field, the ones in every observation required, no others allowed. */
    private static Map<String, Object> record(List<Map<?, ?>> objects) {
        Set<String> keys = new LinkedHashSet<>();
        for (Map<?, ?> m : objects) for (Object k : m.keySet()) keys.add(String.valueOf(k));
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (String k : keys) {
            List<Object> values = new ArrayList<>();
            boolean always = true;
            for (Map<?, ?> m : objects) {
                if (m.containsKey(k)) values.add(m.get(k));
                else always = false;
            }
            properties.put(k, infer(values));
            if (always) required.add(k);
        }
        Map<String, Object> t = type("object");
        t.put("properties", properties);
        t.put("required", required);
        t.put("additionalProperties", false);
        return t;
    }

    /** Whether the objects are maps keyed by ids: every key an id, and not one fixed set of keys. */
    private static boolean idKeyed(List<Map<?, ?>> objects) {
        Set<Object> all = new LinkedHashSet<>();
        for (Map<?, ?> m : objects) all.addAll(m.keySet());
        if (all.isEmpty()) return false;
        for (Object k : all) if (!ID_KEY.matcher(String.valueOf(k)).matches()) return false;
        return objects.size() == 1 || objects.stream().anyMatch(m -> !m.keySet().equals(all));
    }

    /** Whether the objects' keys, all together, are many times what one of them has: names of a map, not fields. */
    private static boolean varyingKeys(List<Map<?, ?>> objects) {
        Set<Object> all = new LinkedHashSet<>();
        long total = 0;
        for (Map<?, ?> m : objects) {
            all.addAll(m.keySet());
            total += m.size();
        }
        return all.size() >= 4 * VARYING_KEYS && all.size() * objects.size() >= VARYING_KEYS * total;
    }

    /** A string field in every object whose few values come with different key sets (a tagged union), or null. */
    private static String discriminator(List<Map<?, ?>> objects) {
        Map<?, ?> first = objects.getFirst();
        for (Object k : first.keySet()) {
            Map<Object, Set<Object>> keySets = new LinkedHashMap<>();
            boolean candidate = true;
            for (Map<?, ?> m : objects) {
                if (!(m.get(k) instanceof String tag)) {
                    candidate = false;
                    break;
                }
                keySets.computeIfAbsent(tag, x -> new LinkedHashSet<>()).add(m.keySet());
            }
            if (!candidate || keySets.size() < 2 || keySets.size() > TAGS_MAX) continue;
            // each tag has one key set of its own
            Set<Object> seen = new LinkedHashSet<>();
            boolean distinct = true;
            for (Set<Object> sets : keySets.values()) {
                if (sets.size() != 1 || !seen.add(sets.iterator().next())) distinct = false;
            }
            if (distinct) return String.valueOf(k);
        }
        return null;
    }

    private static Map<String, Object> type(String name) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("type", name);
        return t;
    }
}
