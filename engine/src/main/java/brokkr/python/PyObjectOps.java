package brokkr.python;

import static brokkr.python.PyObjects.typeName;

import brokkr.value.PyNone;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Python's operators on {@link PyObjects}' dynamic objects, with CPython 3.11's results and
 * {@code TypeError}/{@code ZeroDivisionError}/{@code OverflowError} texts: {@code + - * / // % **},
 * unary minus, the ordering comparisons and {@code in}.
 */
public final class PyObjectOps {
    private PyObjectOps() {}

    private static boolean isIntLike(Object o) {
        return o instanceof BigInteger || o instanceof Boolean;
    }

    private static BigInteger big(Object o) {
        return PyObjects.asBigInteger(o);
    }

    /** float(x) of an int/bool/float, with int's OverflowError. */
    public static double toDouble(Object o) {
        if (o instanceof Double d) return d;
        BigInteger i = big(o);
        if (i.bitLength() <= 1023) {
            double d = i.doubleValue();
            if (!Double.isInfinite(d)) return d;
        }
        double d = new BigDecimal(i).doubleValue();
        if (Double.isInfinite(d)) throw new PyException("OverflowError", "int too large to convert to float");
        return d;
    }

    private static PyException unsupported(String op, Object a, Object b) {
        return PyException.typeError(
                "unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
    }

    public static Object add(Object a, Object b) {
        return add(a, b, "+");
    }

    /** {@code a + b}, or {@code a += b} ({@code op} is the operator an unsupported pair's TypeError names). */
    public static Object add(Object a, Object b, String op) {
        if (isIntLike(a) && isIntLike(b)) return big(a).add(big(b));
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) return toDouble(a) + toDouble(b);
        if (a instanceof String s) {
            if (b instanceof String t) return s + t;
            throw PyException.typeError("can only concatenate str (not \"" + typeName(b) + "\") to str");
        }
        if (a instanceof List<?> l) {
            if (b instanceof List<?> m) {
                List<Object> out = new ArrayList<>(l);
                out.addAll(m);
                return ArrayVector.from(out);
            }
            throw PyException.typeError("can only concatenate list (not \"" + typeName(b) + "\") to list");
        }
        if (a instanceof PyTuple t) {
            if (b instanceof PyTuple u) {
                List<Object> out = new ArrayList<>(t.items());
                out.addAll(u.items());
                return new PyTuple(out);
            }
            throw PyException.typeError("can only concatenate tuple (not \"" + typeName(b) + "\") to tuple");
        }
        throw unsupported(op, a, b);
    }

    public static Object sub(Object a, Object b) {
        return sub(a, b, "-");
    }

    /** {@code a - b}, or {@code a -= b}. */
    public static Object sub(Object a, Object b, String op) {
        if (isIntLike(a) && isIntLike(b)) return big(a).subtract(big(b));
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) return toDouble(a) - toDouble(b);
        throw unsupported(op, a, b);
    }

    public static Object mul(Object a, Object b) {
        return mul(a, b, "*");
    }

    /** {@code a * b}, or {@code a *= b}. */
    public static Object mul(Object a, Object b, String op) {
        if (isIntLike(a) && isIntLike(b)) return big(a).multiply(big(b));
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) return toDouble(a) * toDouble(b);
        // Objects/abstract.c PyNumber_Multiply: no nb_multiply for the pair, so a sequence's sq_repeat (left first),
        // whose count must be an int ("can't multiply sequence by non-int of type 'str'")
        if (isSequence(a)) return repeat(a, b);
        if (isSequence(b)) return repeat(b, a);
        throw unsupported(op, a, b);
    }

    private static boolean isSequence(Object o) {
        return o instanceof String || o instanceof List<?> || o instanceof PyTuple;
    }

    /** The largest result built before CPython would raise MemoryError on this machine's budget. */
    private static final long REPEAT_LIMIT = 1L << 28;

    private static Object repeat(Object seq, Object count) {
        if (!isIntLike(count))
            throw PyException.typeError("can't multiply sequence by non-int of type '" + typeName(count) + "'");
        BigInteger n = big(count);
        if (n.bitLength() > 63) throw new PyException("OverflowError", "cannot fit 'int' into an index-sized integer");
        long times = Math.max(0, n.longValue());
        if (seq instanceof String s) {
            if (times * s.length() > REPEAT_LIMIT) throw new PyException("MemoryError", "");
            return s.repeat((int) times);
        }
        List<?> items = seq instanceof PyTuple t ? t.items() : (List<?>) seq;
        if (times * items.size() > REPEAT_LIMIT) throw new PyException("MemoryError", "");
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < times; i++) out.addAll(items);
        return seq instanceof PyTuple ? new PyTuple(out) : ArrayVector.from(out);
    }

    /** {@code a / b}: true division; int / int correctly rounded as CPython's long_true_divide. */
    public static Object truediv(Object a, Object b) {
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            if (isIntLike(a) && isIntLike(b)) {
                if (big(b).signum() == 0) throw new PyException("ZeroDivisionError", "division by zero");
                BigInteger x = big(a), y = big(b);
                if (x.bitLength() <= 53 && y.bitLength() <= 53) return x.doubleValue() / y.doubleValue();
                double q = new BigDecimal(x)
                        .divide(new BigDecimal(y), java.math.MathContext.DECIMAL128)
                        .doubleValue();
                if (Double.isInfinite(q))
                    throw new PyException("OverflowError", "integer division result too large for a float");
                return q;
            }
            double y = toDouble(b);
            if (y == 0.0) throw new PyException("ZeroDivisionError", "float division by zero");
            return toDouble(a) / y;
        }
        throw unsupported("/", a, b);
    }

    public static Object floordiv(Object a, Object b) {
        if (isIntLike(a) && isIntLike(b)) {
            if (big(b).signum() == 0) throw new PyException("ZeroDivisionError", "integer division or modulo by zero");
            BigInteger[] qr = big(a).divideAndRemainder(big(b));
            BigInteger q = qr[0];
            if (qr[1].signum() != 0 && (qr[1].signum() != big(b).signum())) q = q.subtract(BigInteger.ONE);
            return q;
        }
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            double y = toDouble(b);
            if (y == 0.0) throw new PyException("ZeroDivisionError", "float floor division by zero");
            return Math.floor(toDouble(a) / y);
        }
        throw unsupported("//", a, b);
    }

    public static Object mod(Object a, Object b) {
        if (isIntLike(a) && isIntLike(b)) {
            if (big(b).signum() == 0) throw new PyException("ZeroDivisionError", "integer division or modulo by zero");
            BigInteger m = big(a).mod(big(b).abs());
            if (big(b).signum() < 0 && m.signum() != 0) m = m.add(big(b));
            return m;
        }
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            double x = toDouble(a), y = toDouble(b);
            if (y == 0.0) throw new PyException("ZeroDivisionError", "float modulo");
            double m = x % y;
            if (m != 0.0 && (m < 0) != (y < 0)) m += y;
            else if (m == 0.0) m = Math.copySign(0.0, y);
            return m;
        }
        if (a instanceof String) throw PyException.typeError("not all arguments converted during string formatting");
        throw unsupported("%", a, b);
    }

    /** {@code a ** b} for numbers (int ** negative int is a float; float overflow is OverflowError (34, ...)). */
    public static Object pow(Object a, Object b) {
        if (isIntLike(a) && isIntLike(b)) {
            BigInteger x = big(a), y = big(b);
            if (y.signum() >= 0) return x.pow(y.intValueExact());
            if (x.signum() == 0) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
            return floatPow(toDouble(x), toDouble(y));
        }
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) return floatPow(toDouble(a), toDouble(b));
        throw PyException.typeError(
                "unsupported operand type(s) for ** or pow(): '" + typeName(a) + "' and '" + typeName(b) + "'");
    }

    private static Object floatPow(double x, double y) {
        if (x == 0.0 && y < 0) throw new PyException("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        // floatobject.c float_pow: a negative base to a non-integral power is complex
        if (x < 0 && y != Math.floor(y) && Double.isFinite(y)) return PyComplex.pow(x, y);
        double r = Math.pow(x, y);
        if (Double.isInfinite(r) && Double.isFinite(x) && Double.isFinite(y)) {
            throw new PyException("OverflowError", "(34, 'Numerical result out of range')");
        }
        return r;
    }

    public static Object neg(Object a) {
        if (isIntLike(a)) return big(a).negate();
        if (a instanceof Double d) return -d;
        throw PyException.typeError("bad operand type for unary -: '" + typeName(a) + "'");
    }

    public static Object pos(Object a) {
        if (isIntLike(a)) return big(a);
        if (a instanceof Double d) return d;
        throw PyException.typeError("bad operand type for unary +: '" + typeName(a) + "'");
    }

    public static Object invert(Object a) {
        if (isIntLike(a)) return big(a).not();
        throw PyException.typeError("bad operand type for unary ~: '" + typeName(a) + "'");
    }

    public static Object abs(Object a) {
        if (isIntLike(a)) return big(a).abs();
        if (a instanceof Double d) return Math.abs(d);
        throw PyException.typeError("bad operand type for abs(): '" + typeName(a) + "'");
    }

    // ---- ordering ----

    public static boolean lt(Object a, Object b) {
        return compare(a, b, "<") < 0;
    }

    public static boolean le(Object a, Object b) {
        return compareAllowEq(a, b, "<=") <= 0;
    }

    public static boolean gt(Object a, Object b) {
        return compare(a, b, ">") > 0;
    }

    public static boolean ge(Object a, Object b) {
        return compareAllowEq(a, b, ">=") >= 0;
    }

    private static final int NAN = 99;

    private static int compareAllowEq(Object a, Object b, String op) {
        int c = compare(a, b, op);
        return c == NAN ? NAN * (op.startsWith("<") ? 1 : -1) : c;
    }

    /** Sign of a - b for Python's ordering; TypeError for unorderable types; NaN gives a value failing every test. */
    private static int compare(Object a, Object b, String op) {
        if (PyObjects.isNumber(a) && PyObjects.isNumber(b)) {
            if (a instanceof Double x && x.isNaN() || b instanceof Double y && y.isNaN()) {
                return op.startsWith("<") ? NAN : -NAN;
            }
            return Integer.signum(PyObjects.numCompare(a, b));
        }
        if (a instanceof String s && b instanceof String t) return Integer.signum(PyStrings.compare(s, t));
        if (a instanceof List<?> l && b instanceof List<?> m) return seqCompare(l, m, op);
        if (a instanceof PyTuple t && b instanceof PyTuple u) return seqCompare(t.items(), u.items(), op);
        throw PyException.typeError(
                "'" + op + "' not supported between instances of '" + typeName(a) + "' and '" + typeName(b) + "'");
    }

    private static int seqCompare(List<?> a, List<?> b, String op) {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            if (!PyObjects.eq(a.get(i), b.get(i))) return compare(a.get(i), b.get(i), op);
        }
        return Integer.compare(a.size(), b.size());
    }

    // ---- membership ----

    /** {@code x in container}. */
    public static boolean in(Object x, Object container) {
        return switch (container) {
            case String s -> {
                if (x instanceof String t) yield s.contains(t);
                throw PyException.typeError("'in <string>' requires string as left operand, not " + typeName(x));
            }
            case List<?> l -> {
                for (Object o : l) if (o == x || PyObjects.eq(o, x)) yield true;
                yield false;
            }
            case PyTuple t -> {
                for (Object o : t.items()) if (o == x || PyObjects.eq(o, x)) yield true;
                yield false;
            }
            case Map<?, ?> m -> PyObjects.findKey(m, x) != null;
            case PySet s -> {
                // Objects/setobject.c set_contains: a set that is not hashable is looked up as a frozenset
                if (!(x instanceof PySet)) PyObjects.requireHashable(x);
                yield s.contains(x);
            }
            default -> throw PyException.typeError("argument of type '" + typeName(container) + "' is not iterable");
        };
    }

    /** The items {@code for x in o} visits (str: its characters; dict: its keys); TypeError if not iterable. */
    public static List<Object> iterate(Object o) {
        return switch (o) {
            case String s -> {
                List<Object> out = new ArrayList<>(s.length());
                s.codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
                yield out;
            }
            case List<?> l -> new ArrayList<>(l);
            case PyTuple t -> new ArrayList<>(t.items());
            case Map<?, ?> m -> new ArrayList<>(m.keySet());
            case PySet s -> new ArrayList<>(s.iterationOrder());
            default -> throw PyException.typeError("'" + typeName(o) + "' object is not iterable");
        };
    }

    /** {@code len(o)}. */
    public static int len(Object o) {
        return switch (o) {
            case String s -> s.codePointCount(0, s.length());
            case List<?> l -> l.size();
            case PyTuple t -> t.size();
            case Map<?, ?> m -> m.size();
            case PySet s -> s.size();
            default -> throw PyException.typeError("object of type '" + typeName(o) + "' has no len()");
        };
    }

    static boolean isNone(Object o) {
        return o == PyNone.NONE;
    }

    /** {@code container[key]} for a dict, list, tuple or str (no slices), with CPython's KeyError/IndexError/TypeError. */
    public static Object getItem(Object container, Object key) {
        switch (container) {
            case Map<?, ?> m -> {
                Object k = PyObjects.findKey(m, key);
                if (k == null) throw new PyException("KeyError", PyObjects.repr(key));
                return m.get(k);
            }
            case List<?> l -> {
                return index("list", l, key);
            }
            case PyTuple t -> {
                return index("tuple", t.items(), key);
            }
            case String s -> {
                if (!PyObjects.isInt(key))
                    throw PyException.typeError("string indices must be integers, not '" + typeName(key) + "'");
                return index("string", iterate(s), key);
            }
            default -> throw PyException.typeError("'" + typeName(container) + "' object is not subscriptable");
        }
    }

    private static Object index(String kind, List<?> items, Object key) {
        if (!PyObjects.isInt(key))
            throw PyException.typeError(kind + " indices must be integers or slices, not " + typeName(key));
        BigInteger i = big(key);
        if (i.signum() < 0) i = i.add(BigInteger.valueOf(items.size()));
        if (i.signum() < 0 || i.compareTo(BigInteger.valueOf(items.size())) >= 0) {
            throw new PyException("IndexError", kind + " index out of range");
        }
        return items.get(i.intValue());
    }

    /**
     * The receiver of a str method ({@code x.lower()}): the string, or CPython's AttributeError
     * {@code 'int' object has no attribute 'lower'} (for names str has, other types lack them).
     */
    public static String strReceiver(Object o, String method) {
        if (o instanceof String s) return s;
        throw PyException.attributeError("'" + typeName(o) + "' object has no attribute '" + method + "'");
    }

    /** {@code str.lower()} (full Unicode lowercase mapping). */
    public static String lower(Object o) {
        return strReceiver(o, "lower").toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code sep.join(items)}: every item must be a str. */
    public static String join(String sep, Object iterable) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (Object o : iterate(iterable)) {
            if (!(o instanceof String s)) {
                throw PyException.typeError(
                        "sequence item " + i + ": expected str instance, " + typeName(o) + " found");
            }
            if (i > 0) sb.append(sep);
            sb.append(s);
            i++;
        }
        return sb.toString();
    }
}
