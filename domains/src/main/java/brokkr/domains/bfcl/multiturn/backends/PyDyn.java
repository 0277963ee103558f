package brokkr.domains.bfcl.multiturn.backends;

import brokkr.python.PyBuiltins;
import brokkr.python.PyException;
import brokkr.python.PyFormat;
import brokkr.python.PyObjects;
import brokkr.python.PySet;
import brokkr.python.PyTuple;
import brokkr.value.PyNone;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.PVector;
import org.pcollections.TreePVector;

/**
 * The CPython operations TradingBot, TravelAPI and VehicleControlAPI apply to raw call arguments (any
 * Python object of {@link PyObjects}' model), with CPython 3.11's exception texts ({@code < <= > >=} are
 * {@link brokkr.python.PyObjectOps}'): {@code + - * /},
 * {@code float()}, {@code int()}, iteration, hashing and dict lookup with numeric key unification
 * ({@code 12345.0} and {@code True} find the keys {@code 12345} and {@code 1}), and {@code format(x, '.2f')}.
 * Package-private until the same operations land in {@code brokkr.python.PyObjects}.
 */
final class PyDyn {
    private PyDyn() {}

    private static List<?> items(Object seq) { return seq instanceof PyTuple t ? t.items() : (List<?>) seq; }

    // ---- arithmetic ----

    static Object add(Object a, Object b, String op) {
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            if (PyObjects.isInt(a) && PyObjects.isInt(b)) return PyObjects.asBigInteger(a).add(PyObjects.asBigInteger(b));
            return toDouble(a) + toDouble(b);
        }
        if (a instanceof String s) {
            if (b instanceof String t) return s + t;
            throw PyException.typeError("can only concatenate str (not \"" + PyObjects.typeName(b) + "\") to str");
        }
        if (a instanceof List<?> l) {
            if (b instanceof List<?> m) {
                List<Object> out = new ArrayList<>(l);
                out.addAll(m);
                return TreePVector.from(out);
            }
            throw PyException.typeError("can only concatenate list (not \"" + PyObjects.typeName(b) + "\") to list");
        }
        if (a instanceof PyTuple t) {
            if (b instanceof PyTuple u) {
                List<Object> out = new ArrayList<>(t.items());
                out.addAll(u.items());
                return new PyTuple(out);
            }
            throw PyException.typeError("can only concatenate tuple (not \"" + PyObjects.typeName(b) + "\") to tuple");
        }
        throw unsupported(op, a, b);
    }

    static Object sub(Object a, Object b, String op) {
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            if (PyObjects.isInt(a) && PyObjects.isInt(b)) return PyObjects.asBigInteger(a).subtract(PyObjects.asBigInteger(b));
            return toDouble(a) - toDouble(b);
        }
        throw unsupported(op, a, b);
    }

    static Object mul(Object a, Object b, String op) {
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            if (PyObjects.isInt(a) && PyObjects.isInt(b)) return PyObjects.asBigInteger(a).multiply(PyObjects.asBigInteger(b));
            return toDouble(a) * toDouble(b);
        }
        // Objects/abstract.c PyNumber_Multiply: no nb_multiply for the pair, so a sequence's sq_repeat (left first).
        if (isSequence(a)) return repeat(a, b);
        if (isSequence(b)) return repeat(b, a);
        throw unsupported(op, a, b);
    }

    /** {@code a / b} (true division; int / int correctly rounded as CPython's long_true_divide). */
    static Object truediv(Object a, Object b) {
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            if (PyObjects.isInt(a) && PyObjects.isInt(b)) {
                BigInteger x = PyObjects.asBigInteger(a), y = PyObjects.asBigInteger(b);
                if (y.signum() == 0) throw new PyException("ZeroDivisionError", "division by zero");
                if (x.bitLength() <= 53 && y.bitLength() <= 53) return x.doubleValue() / y.doubleValue();
                double q = new BigDecimal(x).divide(new BigDecimal(y), MathContext.DECIMAL128).doubleValue();
                if (Double.isInfinite(q)) throw new PyException("OverflowError", "integer division result too large for a float");
                return q;
            }
            double y = toDouble(b);
            if (y == 0.0) throw new PyException("ZeroDivisionError", "float division by zero");
            return toDouble(a) / y;
        }
        throw unsupported("/", a, b);
    }

    private static boolean isSequence(Object o) { return o instanceof String || o instanceof List<?> || o instanceof PyTuple; }

    private static Object repeat(Object seq, Object count) {
        if (!PyObjects.isInt(count)) {
            throw PyException.typeError("can't multiply sequence by non-int of type '" + PyObjects.typeName(count) + "'");
        }
        BigInteger n = PyObjects.asBigInteger(count);
        if (n.bitLength() > 63) throw new PyException("OverflowError", "cannot fit 'int' into an index-sized integer");
        long times = Math.max(0, n.longValue());
        if (seq instanceof String s) {
            if (times * s.length() > (1L << 28)) throw new PyException("MemoryError", "");
            return s.repeat((int) times);
        }
        List<?> l = items(seq);
        if (times * l.size() > (1L << 28)) throw new PyException("MemoryError", "");
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < times; i++) out.addAll(l);
        return seq instanceof PyTuple ? new PyTuple(out) : TreePVector.from(out);
    }

    private static PyException unsupported(String op, Object a, Object b) {
        return PyException.typeError("unsupported operand type(s) for " + op + ": '" + PyObjects.typeName(a) + "' and '"
                + PyObjects.typeName(b) + "'");
    }

    /** A number as a float (an int that does not fit: OverflowError). */
    static double toDouble(Object o) {
        return switch (o) {
            case Double d -> d;
            case Boolean b -> b ? 1.0 : 0.0;
            case BigInteger i -> PyBuiltins.intToDouble(i);
            default -> throw new IllegalArgumentException("not a number: " + PyObjects.typeName(o));
        };
    }

    /** {@code abs(x)}. */
    static Object abs(Object x) {
        return switch (x) {
            case Double d -> Math.abs(d);
            case BigInteger i -> i.abs();
            case Boolean b -> b ? BigInteger.ONE : BigInteger.ZERO;
            default -> throw PyException.typeError("bad operand type for abs(): '" + PyObjects.typeName(x) + "'");
        };
    }

    // ---- float() / int() ----

    /** {@code float(x)}. */
    static double floatOf(Object o) {
        return switch (o) {
            case Double d -> d;
            case Boolean b -> b ? 1.0 : 0.0;
            case BigInteger i -> PyBuiltins.intToDouble(i);
            case String s -> parseFloat(s);
            default -> throw PyException.typeError("float() argument must be a string or a real number, not '"
                    + PyObjects.typeName(o) + "'");
        };
    }

    /** Objects/floatobject.c float_from_string: strip, underscores between digits, inf/nan words. */
    private static double parseFloat(String original) {
        String s = original.strip();
        String t = s.toLowerCase(java.util.Locale.ROOT);
        String body = t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
        double sign = t.startsWith("-") ? -1.0 : 1.0;
        if (body.equals("inf") || body.equals("infinity")) return sign * Double.POSITIVE_INFINITY;
        if (body.equals("nan")) return sign > 0 ? Double.NaN : -Double.NaN;
        if (body.matches("(\\d(_?\\d)*)?(\\.(\\d(_?\\d)*)?)?(e[+-]?\\d(_?\\d)*)?") && body.matches(".*\\d.*")
                && !body.startsWith("e") && !body.startsWith(".e")) {
            return sign * Double.parseDouble(body.replace("_", ""));
        }
        throw PyException.valueError("could not convert string to float: " + PyObjects.repr(original));
    }

    /** {@code int(x)}. */
    static BigInteger intOf(Object o) {
        return switch (o) {
            case BigInteger i -> i;
            case Boolean b -> b ? BigInteger.ONE : BigInteger.ZERO;
            case Double d -> {
                if (d.isNaN()) throw PyException.valueError("cannot convert float NaN to integer");
                if (d.isInfinite()) throw new PyException("OverflowError", "cannot convert float infinity to integer");
                yield new BigDecimal(d).toBigInteger();
            }
            case String s -> {
                String t = s.strip();
                if (t.matches("[+-]?\\d(_?\\d)*")) yield new BigInteger(t.replace("_", ""));
                throw PyException.valueError("invalid literal for int() with base 10: " + PyObjects.repr(s));
            }
            default -> throw PyException.typeError("int() argument must be a string, a bytes-like object or a real number, not '"
                    + PyObjects.typeName(o) + "'");
        };
    }

    // ---- iteration, hashing, lookup ----

    /** {@code list(iter(x))}: a str yields its characters, a dict its keys. */
    static List<Object> iterate(Object o) {
        return switch (o) {
            case List<?> l -> new ArrayList<>(l);
            case PyTuple t -> new ArrayList<>(t.items());
            case String s -> {
                List<Object> out = new ArrayList<>();
                s.codePoints().forEach(cp -> out.add(Character.toString(cp)));
                yield out;
            }
            case Map<?, ?> m -> new ArrayList<>(m.keySet());
            case PySet s -> new ArrayList<>(s.members());
            default -> throw PyException.typeError("'" + PyObjects.typeName(o) + "' object is not iterable");
        };
    }

    /** {@code hash(x)} succeeds, else {@code TypeError: unhashable type: 'list'}. */
    static void requireHashable(Object o) {
        switch (o) {
            case List<?> l -> throw unhashable(o);
            case Map<?, ?> m -> throw unhashable(o);
            case PySet s when !s.frozen() -> throw unhashable(o);
            case PyTuple t -> t.items().forEach(PyDyn::requireHashable);
            default -> { }
        }
    }

    private static PyException unhashable(Object o) {
        return PyException.typeError("unhashable type: '" + PyObjects.typeName(o) + "'");
    }

    /**
     * The key of {@code m} that Python's dict lookup finds for {@code key} (hash-equal and {@code ==}), or
     * Java null. Numbers unify across bool/int/float; str only matches str.
     */
    static Object findKey(Map<?, ?> m, Object key) {
        requireHashable(key);
        if (m.containsKey(key) && !(key instanceof Double d && d.isNaN())) {
            if (!(key instanceof Boolean) && !(key instanceof Double)) return key;
        }
        if (PyObjects.isNumber(key) || key instanceof PyTuple) {
            for (Object k : m.keySet()) if (PyObjects.eq(k, key) && sameKind(k, key)) return k;
            return null;
        }
        return m.containsKey(key) ? key : null;
    }

    /** Keys that are == also hash-equal when both are numbers (or both tuples); other mixes never meet. */
    private static boolean sameKind(Object a, Object b) {
        return (PyObjects.isNumber(a) && PyObjects.isNumber(b)) || (a instanceof PyTuple && b instanceof PyTuple);
    }

    static boolean containsKey(Map<?, ?> m, Object key) { return findKey(m, key) != null; }

    /** {@code m[key]}, KeyError when absent. */
    static Object getItem(Map<?, ?> m, Object key) {
        Object k = findKey(m, key);
        if (k == null) throw new PyException("KeyError", PyObjects.repr(key));
        return m.get(k);
    }

    /** {@code m.get(key, dflt)}. */
    static Object get(Map<?, ?> m, Object key, Object dflt) {
        Object k = findKey(m, key);
        return k == null ? dflt : m.get(k);
    }

    /** {@code obj[key]} where obj came out of a dict and may not be one (a str: "string indices must be integers"). */
    static Object subscript(Object obj, Object key) {
        if (obj instanceof Map<?, ?> m) return getItem(m, key);
        if (obj instanceof String || obj instanceof List<?> || obj instanceof PyTuple) {
            String what = obj instanceof String ? "string" : PyObjects.typeName(obj);
            if (!PyObjects.isInt(key)) {
                // CPython 3.11 quotes the type for str (unicode_subscript) but not for list/tuple.
                throw PyException.typeError(obj instanceof String ? "string indices must be integers, not '" + PyObjects.typeName(key) + "'"
                        : what + " indices must be integers or slices, not " + PyObjects.typeName(key));
            }
            List<Object> items = iterate(obj);
            BigInteger i = PyObjects.asBigInteger(key);
            int n = items.size();
            BigInteger idx = i.signum() < 0 ? i.add(BigInteger.valueOf(n)) : i;
            if (idx.signum() < 0 || idx.compareTo(BigInteger.valueOf(n)) >= 0) {
                throw new PyException("IndexError", what + " index out of range");
            }
            return items.get(idx.intValue());
        }
        if (obj == PyNone.NONE) throw PyException.typeError("'NoneType' object is not subscriptable");
        throw PyException.typeError("'" + PyObjects.typeName(obj) + "' object is not subscriptable");
    }

    /** {@code d[key] = value} on a persistent dict; an existing (Python-equal) key keeps its place and its own object. */
    static OrderedPMap<Object, Object> put(Map<?, ?> m, Object key, Object value) {
        OrderedPMap<Object, Object> p = ordered(m);
        Object k = findKey(p, key);
        return p.plus(k == null ? key : k, value);
    }

    @SuppressWarnings("unchecked")
    static OrderedPMap<Object, Object> ordered(Map<?, ?> m) {
        if (m instanceof OrderedPMap<?, ?> o) return (OrderedPMap<Object, Object>) o;
        OrderedPMap<Object, Object> p = OrderedPMap.empty();
        for (Map.Entry<?, ?> e : m.entrySet()) p = p.plus(e.getKey(), e.getValue());
        return p;
    }

    @SuppressWarnings("unchecked")
    static PVector<Object> vector(List<?> l) {
        return l instanceof PVector<?> v ? (PVector<Object>) v : TreePVector.from(l);
    }

    /** {@code x in seq} for a list (identity or {@code ==}). */
    static boolean listContains(List<?> l, Object x) {
        for (Object e : l) if (e == x || PyObjects.eq(e, x)) return true;
        return false;
    }

    /** {@code x.attr(...)} on something that is not a str. */
    static PyException noAttribute(Object o, String attr) {
        return PyException.attributeError("'" + PyObjects.typeName(o) + "' object has no attribute '" + attr + "'");
    }

    /** {@code format(x, '.2f')} for a number. */
    static String fixed2(Object x) {
        return PyFormat.fixed(toDouble(x), 2);
    }

    /** {@code f"{x}"}: {@code format(x, '')}, i.e. {@code str(x)}. */
    static String fstr(Object x) { return PyObjects.str(x); }
}
