package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * Python's {@code ==} on values. Unlike {@link Value#equals} (structural, by float bits), numbers
 * compare by value across int, bool and float ({@code 1 == 1.0 == True}, exactly: {@code 2**53 + 1
 * != float(2**53 + 1)}), NaN equals nothing, and dicts compare without regard to order.
 *
 * <p>CPython's container comparison first checks identity ({@code x = nan; [x] == [x]} is True);
 * values have no identity here, so a NaN inside a container never equals anything, which is what
 * CPython gives for separately computed NaNs.
 */
public final class PyOps {
    private PyOps() {}

    public static boolean eq(Value a, Value b) {
        if (a == b && !(a instanceof PyFloat) && !(a instanceof PyList) && !(a instanceof PyDict)) return true;
        return switch (a) {
            case PyNone n -> b instanceof PyNone;
            case PyStr s -> b instanceof PyStr t && s.value().equals(t.value());
            case PyBool x -> numEq(a, b);
            case PyInt x -> numEq(a, b);
            case PyFloat x -> numEq(a, b);
            case PyList l -> b instanceof PyList m && listEq(l, m);
            case PyDict d -> b instanceof PyDict e && dictEq(d, e);
        };
    }

    public static boolean ne(Value a, Value b) {
        return !eq(a, b);
    }

    /** The ordering operators, with their Python symbols (for the TypeError text). */
    public enum Order {
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");
        final String symbol;

        Order(String symbol) {
            this.symbol = symbol;
        }
    }

    public static boolean lt(Value a, Value b) {
        return compare(a, b, Order.LT);
    }

    public static boolean le(Value a, Value b) {
        return compare(a, b, Order.LE);
    }

    public static boolean gt(Value a, Value b) {
        return compare(a, b, Order.GT);
    }

    public static boolean ge(Value a, Value b) {
        return compare(a, b, Order.GE);
    }

    /**
     * {@code a < b} etc. Numbers compare exactly across int, bool and float (every comparison with NaN
     * is false); str by code point; lists lexicographically (Objects/listobject.c list_richcompare:
     * the first index whose items are not ==, then the operator on those items, else the lengths).
     * Anything else, dicts and None included, is a TypeError:
     * {@code '<' not supported between instances of 'dict' and 'dict'}.
     */
    public static boolean compare(Value a, Value b, Order op) {
        if (isNumber(a) && isNumber(b)) {
            if ((a instanceof PyFloat fa && Double.isNaN(fa.value()))
                    || (b instanceof PyFloat fb && Double.isNaN(fb.value()))) return false;
            return holds(numCompare(a, b), op);
        }
        if (a instanceof PyStr s && b instanceof PyStr t) return holds(PyStrings.compare(s.value(), t.value()), op);
        if (a instanceof PyList l && b instanceof PyList m) {
            int n = Math.min(l.size(), m.size());
            for (int i = 0; i < n; i++) {
                if (!eq(l.get(i), m.get(i))) return compare(l.get(i), m.get(i), op);
            }
            return holds(Integer.compare(l.size(), m.size()), op);
        }
        throw PyException.typeError("'" + op.symbol + "' not supported between instances of '" + a.typeName()
                + "' and '" + b.typeName() + "'");
    }

    private static boolean holds(int c, Order op) {
        return switch (op) {
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
        };
    }

    private static boolean isNumber(Value v) {
        return v instanceof PyInt || v instanceof PyBool || v instanceof PyFloat;
    }

    /** Exact three-way comparison of two non-NaN numbers (Objects/floatobject.c float_richcompare). */
    private static int numCompare(Value a, Value b) {
        if (a instanceof PyFloat fa) {
            if (b instanceof PyFloat fb) return Double.compare(fa.value() + 0.0, fb.value() + 0.0); // -0.0 == 0.0
            return floatVsInt(fa.value(), integral(b));
        }
        if (b instanceof PyFloat fb) return -floatVsInt(fb.value(), integral(a));
        return integral(a).compareTo(integral(b));
    }

    private static int floatVsInt(double x, BigInteger i) {
        if (Double.isInfinite(x)) return x > 0 ? 1 : -1;
        return new BigDecimal(x).compareTo(new BigDecimal(i));
    }

    private static boolean listEq(PyList l, PyList m) {
        if (l.size() != m.size()) return false;
        for (int i = 0; i < l.size(); i++) if (!eq(l.get(i), m.get(i))) return false;
        return true;
    }

    private static boolean dictEq(PyDict d, PyDict e) {
        if (d.size() != e.size()) return false;
        for (Map.Entry<String, Value> en : d.entries()) {
            Value other = e.get(en.getKey());
            if (other == null || !eq(en.getValue(), other)) return false;
        }
        return true;
    }

    private static boolean numEq(Value a, Value b) {
        BigInteger ia = integral(a), ib = integral(b);
        if (ia != null && ib != null) return ia.equals(ib);
        if (a instanceof PyFloat fa) {
            if (b instanceof PyFloat fb) return fa.value() == fb.value();
            return ib != null && floatEqInt(fa.value(), ib);
        }
        if (b instanceof PyFloat fb) return ia != null && floatEqInt(fb.value(), ia);
        return false;
    }

    /** The int value of an int or bool, else null. */
    private static BigInteger integral(Value v) {
        if (v instanceof PyInt i) return i.value();
        if (v instanceof PyBool b) return b.value() ? BigInteger.ONE : BigInteger.ZERO;
        return null;
    }

    /** Objects/floatobject.c float_richcompare: exact comparison, no rounding of the int. */
    private static boolean floatEqInt(double x, BigInteger i) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return false;
        if (x != Math.rint(x)) return false;
        if (i.bitLength() <= 53) return x == i.longValue();
        return new BigDecimal(x).toBigIntegerExact().equals(i);
    }
}
