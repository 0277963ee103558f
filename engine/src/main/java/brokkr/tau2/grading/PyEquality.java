package brokkr.tau2.grading;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Python's {@code ==} on JSON-like values, which upstream's {@code Action.compare_with_tool_call}
 * uses on argument dicts: {@code True == 1 == 1.0}, int and float compare exactly (not by rounding the
 * int), dicts ignore order, {@code NaN != NaN}. (CPython's container comparison short-cuts on object
 * identity, so a list holding the very same NaN object equals itself; tool arguments parsed from JSON
 * never share such objects between the gold action and the predicted call, so that case cannot arise.)
 */
public final class PyEquality {
    private PyEquality() {}

    public static boolean eq(Value a, Value b) {
        if (a == b) return !(a instanceof PyFloat f && Double.isNaN(f.value()));
        BigDecimal na = number(a), nb = number(b);
        if (na != null || nb != null) {
            if (na == null || nb == null) return false;
            return na.compareTo(nb) == 0;
        }
        if (a instanceof PyFloat || b instanceof PyFloat) return false; // NaN or infinity against a non-equal value
        return switch (a) {
            case PyStr s -> b instanceof PyStr t && s.value().equals(t.value());
            case PyNone n -> b == PyNone.NONE;
            case PyList l -> b instanceof PyList m && listEq(l, m);
            case PyDict d -> b instanceof PyDict e && dictEq(d, e);
            default -> false;
        };
    }

    /** The exact numeric value of a bool, int or finite float; null for anything else. */
    private static BigDecimal number(Value v) {
        return switch (v) {
            case PyBool b -> b.value() ? BigDecimal.ONE : BigDecimal.ZERO;
            case PyInt i -> new BigDecimal(i.value());
            case PyFloat f -> Double.isFinite(f.value()) ? new BigDecimal(f.value()) : null;
            default -> null;
        };
    }

    private static boolean listEq(PyList a, PyList b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (!eq(a.get(i), b.get(i))) return false;
        return true;
    }

    private static boolean dictEq(PyDict a, PyDict b) {
        if (a.size() != b.size()) return false;
        for (Map.Entry<String, Value> e : a.entries()) {
            Value other = b.get(e.getKey());
            if (other == null || !eq(e.getValue(), other)) return false;
        }
        return true;
    }

}
