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

    public static boolean ne(Value a, Value b) { return !eq(a, b); }

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
