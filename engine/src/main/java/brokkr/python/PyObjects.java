package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.PVector;

/**
 * Python's dynamic objects for code transcribed with Python's duck typing (BFCL's multi-turn backends,
 * which receive whatever a model's call string evaluates to), where {@link Value}'s JSON-like model is
 * too narrow (tuples, sets, non-str dict keys, library objects). The model, by Java type:
 * <ul>
 *   <li>{@code None}: {@link PyNone#NONE} (never Java null); {@code bool}: {@link Boolean};
 *       {@code int}: {@link BigInteger} (only; normalise with {@link #integer}); {@code float}: {@link Double};
 *       {@code str}: {@link String};</li>
 *   <li>{@code list}: any {@link List} (persistent {@link PVector} by convention, never mutated once
 *       shared); {@code tuple}: {@link PyTuple}; {@code dict}: any {@link Map} in insertion order
 *       ({@link OrderedPMap} by convention); {@code set}/{@code frozenset}: {@link PySet};</li>
 *   <li>anything else: a {@link Custom} (it names its type and renders its own repr).</li>
 * </ul>
 * Python's {@code 1 == 1.0 == True} key unification is not modelled for dict keys and set members
 * (Java equality: {@code {1: 'a'}} and {@code {True: 'a'}} are different keys here).
 */
public final class PyObjects {
    private PyObjects() {}

    /** An object of a class other than the built-in ones above. */
    public interface Custom {
        /** {@code type(x).__name__}. */
        String pyTypeName();
        /** {@code repr(x)}. */
        String pyRepr();
        /** {@code str(x)}; by default the repr, as for {@code object.__str__}. */
        default String pyStr() {
            return pyRepr();
        }
    }

    /** An object {@code f(...)} can call: a builtin ({@link PyBuiltins#lookup}) or a host's bound method. */
    public interface Callable extends Custom {
        Object call(List<Object> args, Map<String, Object> kwargs);
        /** The name in "X() got multiple values for keyword argument" / "X() argument after * must be". */
        String qualname();
    }

    /** An object with attributes ({@code instance.method}, {@code instance.field}). */
    public interface Attributes {
        /** {@code getattr(self, name)}: the value, or an {@code AttributeError}. */
        Object attribute(String name);
    }

    /** {@code Ellipsis} ({@code ...}). */
    public static final Custom ELLIPSIS = new Custom() {
        @Override
        public String pyTypeName() {
            return "ellipsis";
        }

        @Override
        public String pyRepr() {
            return "Ellipsis";
        }
    };

    // ---- construction ----

    public static BigInteger integer(long v) {
        return BigInteger.valueOf(v);
    }

    /** A persistent list of the given items. */
    public static PVector<Object> list(Object... items) {
        return ArrayVector.from(List.of(items));
    }

    public static PVector<Object> listOf(Collection<?> items) {
        return ArrayVector.from(items);
    }

    /** A persistent dict: {@code dict("a", 1, "b", 2)}. */
    public static OrderedPMap<Object, Object> dict(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) throw new IllegalArgumentException("odd number of arguments");
        OrderedPMap<Object, Object> m = OrderedPMap.empty();
        for (int i = 0; i < keysAndValues.length; i += 2) m = m.plus(keysAndValues[i], check(keysAndValues[i + 1]));
        return m;
    }

    private static Object check(Object v) {
        if (v == null) throw new IllegalArgumentException("Java null is not a Python value (None is PyNone.NONE)");
        if (v instanceof Integer || v instanceof Long)
            throw new IllegalArgumentException("a Python int is a BigInteger: " + v);
        return v;
    }

    /** The dynamic form of a JSON-like value (dicts keep their str keys and order). */
    public static Object fromValue(Value v) {
        return switch (v) {
            case PyNone n -> PyNone.NONE;
            case PyBool b -> b.value();
            case PyInt i -> i.value();
            case PyFloat f -> f.value();
            case PyStr s -> s.value();
            case PyList l -> {
                List<Object> items = new ArrayList<>(l.size());
                for (Value item : l) items.add(fromValue(item));
                yield ArrayVector.from(items);
            }
            case PyDict d -> {
                OrderedPMap<Object, Object> m = OrderedPMap.empty();
                for (Map.Entry<String, Value> e : d.entries()) m = m.plus(e.getKey(), fromValue(e.getValue()));
                yield m;
            }
        };
    }

    // ---- type, truth, equality ----

    /** {@code type(x).__name__}. */
    public static String typeName(Object o) {
        return switch (o) {
            case PyNone n -> "NoneType";
            case Boolean b -> "bool";
            case BigInteger i -> "int";
            case Double d -> "float";
            case String s -> "str";
            case List<?> l -> "list";
            case PyTuple t -> "tuple";
            case Map<?, ?> m -> "dict";
            case PySet s -> s.frozen() ? "frozenset" : "set";
            case Custom c -> c.pyTypeName();
            default ->
                throw new IllegalArgumentException(
                        "not a Python object: " + o.getClass().getName());
        };
    }

    /** {@code bool(x)}. */
    public static boolean truthy(Object o) {
        return switch (o) {
            case PyNone n -> false;
            case Boolean b -> b;
            case BigInteger i -> i.signum() != 0;
            case Double d -> d != 0.0;
            case String s -> !s.isEmpty();
            case List<?> l -> !l.isEmpty();
            case PyTuple t -> t.size() > 0;
            case Map<?, ?> m -> !m.isEmpty();
            case PySet s -> s.size() > 0;
            default -> true;
        };
    }

    public static boolean isNone(Object o) {
        return o == PyNone.NONE;
    }

    /**
     * The key of {@code m} that Python's dict lookup finds for {@code key} (hash-equal and {@code ==}), or
     * Java null: Java equality for str and the like; numbers unify across bool/int/float ({@code d[1.0]} and
     * {@code d[True]} find the key {@code 1}, as {@code hash(1) == hash(1.0) == hash(True)}), and so do
     * tuples of them; a NaN finds nothing (NaN != NaN, and this model has no object identity).
     */
    public static Object findKey(Map<?, ?> m, Object key) {
        requireHashable(key);
        // get, not containsKey: a value is never Java null here, and OrderedPMap's containsKey is
        // AbstractMap's linear scan while its get is a tree lookup
        if (!(key instanceof Boolean) && !(key instanceof Double)) {
            if (m.get(key) != null) return key;
            if (!(key instanceof BigInteger) && !(key instanceof PyTuple)) return null;
        }
        // a bool or float key, or an int or tuple that may equal a key of another numeric type
        for (Object k : m.keySet()) if (eq(k, key) && sameKind(k, key)) return k;
        return null;
    }

    /** Keys that are == also hash-equal when both are numbers (or both tuples); other mixes never meet. */
    private static boolean sameKind(Object a, Object b) {
        return (isNumber(a) && isNumber(b)) || (a instanceof PyTuple && b instanceof PyTuple);
    }

    /** {@code key in d}. */
    public static boolean containsKey(Map<?, ?> m, Object key) {
        return findKey(m, key) != null;
    }

    /** {@code d[key] = value} on a persistent dict: an existing equal key keeps its object and position. */
    public static OrderedPMap<Object, Object> setItem(Map<?, ?> d, Object key, Object value) {
        @SuppressWarnings("unchecked")
        OrderedPMap<Object, Object> m = d instanceof OrderedPMap<?, ?> o
                ? (OrderedPMap<Object, Object>) o
                : OrderedPMap.from((Map<Object, Object>) d);
        Object existing = findKey(m, key);
        return m.plus(existing != null ? existing : key, check(value));
    }

    /** {@code d.get(key, dflt)}. */
    public static Object get(Map<?, ?> d, Object key, Object dflt) {
        Object k = findKey(d, key);
        return k == null ? dflt : d.get(k);
    }

    /** Raises CPython's {@code TypeError: unhashable type: 'list'} for a list, dict or set (also inside a tuple). */
    public static void requireHashable(Object o) {
        switch (o) {
            case List<?> l -> throw PyException.typeError("unhashable type: 'list'");
            case Map<?, ?> m -> throw PyException.typeError("unhashable type: 'dict'");
            case PySet s when !s.frozen() -> throw PyException.typeError("unhashable type: 'set'");
            case PyTuple t -> t.items().forEach(PyObjects::requireHashable);
            default -> {}
        }
    }

    /** An int or bool (Python's {@code isinstance(x, int)}). */
    public static boolean isInt(Object o) {
        return o instanceof BigInteger || o instanceof Boolean;
    }

    /** int, bool or float. */
    public static boolean isNumber(Object o) {
        return o instanceof BigInteger || o instanceof Boolean || o instanceof Double;
    }

    /** Python's {@code a == b} (numbers by value across bool/int/float, dicts order-free, NaN unequal). */
    public static boolean eq(Object a, Object b) {
        if (isNumber(a)) return isNumber(b) && numCompare(a, b) == 0 && !(isNaN(a) || isNaN(b));
        return switch (a) {
            case PyNone n -> b == PyNone.NONE;
            case String s -> s.equals(b);
            case List<?> l -> b instanceof List<?> m && seqEq(l, m);
            case PyTuple t -> b instanceof PyTuple u && seqEq(t.items(), u.items());
            case Map<?, ?> m -> b instanceof Map<?, ?> n && mapEq(m, n);
            case PySet s ->
                b instanceof PySet t
                        && s.members().size() == t.members().size()
                        && s.members().containsAll(t.members());
            default -> a.equals(b);
        };
    }

    private static boolean isNaN(Object o) {
        return o instanceof Double d && d.isNaN();
    }

    private static boolean seqEq(List<?> a, List<?> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i) || a.get(i) instanceof Double) {
                if (!eq(a.get(i), b.get(i))) return false;
            }
        }
        return true;
    }

    private static boolean mapEq(Map<?, ?> a, Map<?, ?> b) {
        if (a.size() != b.size()) return false;
        for (Map.Entry<?, ?> e : a.entrySet()) {
            Object other = b.get(e.getKey());
            if (other == null || !eq(e.getValue(), other)) return false;
        }
        return true;
    }

    /** Compares two numbers (bool/int/float) exactly, as CPython does; NaN compares equal here (callers check). */
    public static int numCompare(Object a, Object b) {
        if (a instanceof Double x && b instanceof Double y)
            return Double.compare(x == -0.0 ? 0.0 : x, y == -0.0 ? 0.0 : y);
        if (a instanceof Double x) return -numCompare(b, a);
        BigInteger i = asBigInteger(a);
        if (b instanceof Double y) {
            if (y.isNaN()) return 0;
            if (y.isInfinite()) return y > 0 ? -1 : 1;
            return new BigDecimal(i).compareTo(new BigDecimal(y));
        }
        return i.compareTo(asBigInteger(b));
    }

    /** An int or bool as a BigInteger. */
    public static BigInteger asBigInteger(Object o) {
        if (o instanceof BigInteger i) return i;
        if (o instanceof Boolean b) return b ? BigInteger.ONE : BigInteger.ZERO;
        throw new IllegalArgumentException("not an int: " + typeName(o));
    }

    // ---- repr / str ----

    /**
     * The release the forms without a {@link CPython} render for: 3.11, the release of this model's other
     * rules ({@link PyObjectOps}, {@link PyHash}, {@link PySetOrder}) and of its user, BFCL multi-turn.
     * A {@link Custom}'s own {@code pyRepr} renders under it too.
     */
    public static final CPython PYTHON = CPython.V3_11;

    /** {@code repr(x)} under {@link #PYTHON}. */
    public static String repr(Object o) {
        return repr(o, PYTHON);
    }

    /** {@code repr(x)} under {@code python} (which characters of a str are escaped). */
    public static String repr(Object o, CPython python) {
        StringBuilder sb = new StringBuilder();
        repr(o, sb, python);
        return sb.toString();
    }

    /** {@code str(x)} under {@link #PYTHON}. */
    public static String str(Object o) {
        return str(o, PYTHON);
    }

    /** {@code str(x)}: a str is itself, a Custom its {@link Custom#pyStr}, anything else its repr under {@code python}. */
    public static String str(Object o, CPython python) {
        if (o instanceof String s) return s;
        if (o instanceof Custom c) return c.pyStr();
        return repr(o, python);
    }

    public static void repr(Object o, StringBuilder sb) {
        repr(o, sb, PYTHON);
    }

    public static void repr(Object o, StringBuilder sb, CPython python) {
        switch (o) {
            case PyNone n -> sb.append("None");
            case Boolean b -> sb.append(b ? "True" : "False");
            case BigInteger i -> sb.append(PyInts.toDecimal(i));
            case Double d -> PyFloats.appendRepr(d, sb);
            case String s -> PyRepr.reprStr(s, sb, python);
            case List<?> l -> {
                sb.append('[');
                items(l, sb, python);
                sb.append(']');
            }
            case PyTuple t -> {
                sb.append('(');
                items(t.items(), sb, python);
                if (t.size() == 1) sb.append(',');
                sb.append(')');
            }
            case Map<?, ?> m -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) sb.append(", ");
                    first = false;
                    repr(e.getKey(), sb, python);
                    sb.append(": ");
                    repr(e.getValue(), sb, python);
                }
                sb.append('}');
            }
            case PySet s -> {
                if (s.size() == 0) {
                    sb.append(s.frozen() ? "frozenset()" : "set()");
                    return;
                }
                if (s.frozen()) sb.append("frozenset(");
                sb.append('{');
                items(s.iterationOrder(), sb, python);
                sb.append('}');
                if (s.frozen()) sb.append(')');
            }
            case Custom c -> sb.append(c.pyRepr());
            default ->
                throw new IllegalArgumentException(
                        "not a Python object: " + o.getClass().getName());
        }
    }

    private static void items(Collection<?> items, StringBuilder sb, CPython python) {
        boolean first = true;
        for (Object item : items) {
            if (!first) sb.append(", ");
            first = false;
            repr(item, sb, python);
        }
    }

    // ---- json.dumps ----

    /**
     * {@code json.dumps(x)} with Python's defaults (ensure_ascii, {@code ", "}/{@code ": "}, NaN and
     * Infinity allowed, keys of type int/float/bool/None converted to str); a {@code TypeError} as
     * CPython 3.11 words it for objects it cannot serialise.
     */
    public static String jsonDumps(Object o) {
        StringBuilder sb = new StringBuilder();
        try {
            json(o, sb);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return sb.toString();
    }

    /**
     * {@link #jsonDumps}'s texts of persistent containers: results hand out parts of a backend's state (a stock's
     * price history, a card list), so the same objects are rendered again and again.
     */
    private static final TextMemo JSON_TEXTS = new TextMemo(1 << 14, 64);

    /** Forgets {@link #jsonDumps}'s remembered texts (a benchmark's run starts as a fresh process would). */
    public static void forgetJsonTexts() {
        JSON_TEXTS.clear();
    }

    private static void json(Object o, StringBuilder sb) throws IOException {
        if (!TextMemo.remembers(o)) {
            jsonOf(o, sb);
            return;
        }
        String known = JSON_TEXTS.get(o);
        if (known != null) {
            sb.append(known);
            return;
        }
        int start = sb.length();
        jsonOf(o, sb);
        JSON_TEXTS.put(o, sb, start);
    }

    private static void jsonOf(Object o, StringBuilder sb) throws IOException {
        switch (o) {
            case PyNone n -> sb.append("null");
            case Boolean b -> sb.append(b ? "true" : "false");
            case BigInteger i -> sb.append(PyInts.toDecimal(i));
            case Double d -> sb.append(PyJson.floatJson(d));
            case String s -> PyJson.writeString(s, true, sb);
            case List<?> l -> jsonArray(l, sb);
            case PyTuple t -> jsonArray(t.items(), sb);
            case Map<?, ?> m -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) sb.append(", ");
                    first = false;
                    PyJson.writeString(jsonKey(e.getKey()), true, sb);
                    sb.append(": ");
                    json(e.getValue(), sb);
                }
                sb.append('}');
            }
            default -> throw PyException.typeError("Object of type " + typeName(o) + " is not JSON serializable");
        }
    }

    private static void jsonArray(List<?> items, StringBuilder sb) throws IOException {
        sb.append('[');
        boolean first = true;
        for (Object item : items) {
            if (!first) sb.append(", ");
            first = false;
            json(item, sb);
        }
        sb.append(']');
    }

    /** Lib/json/encoder.py _iterencode_dict: str keys as they are, float/bool/None/int converted. */
    private static String jsonKey(Object k) {
        return switch (k) {
            case String s -> s;
            case Double d -> PyJson.floatJson(d);
            case Boolean b -> b ? "true" : "false";
            case PyNone n -> "null";
            case BigInteger i -> PyInts.toDecimal(i);
            default -> throw PyException.typeError("keys must be str, int, float, bool or None, not " + typeName(k));
        };
    }
}
