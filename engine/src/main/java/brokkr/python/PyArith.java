package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * CPython's binary {@code +}, {@code -}, {@code *} (and their augmented forms {@code +=}, {@code -=},
 * {@code *=}) and unary {@code -} on values, with CPython 3.13's exception texts: int and bool
 * arithmetic is exact, anything with a float is float arithmetic (an int operand converted first,
 * {@code OverflowError} when it does not fit), str and list concatenate and repeat, everything else is
 * {@code TypeError: unsupported operand type(s) for -: 'str' and 'int'}.
 *
 * <p>Transcribed tool code applies these to raw, unvalidated arguments (tau2 airline's
 * {@code nonfree_baggages - reservation.nonfree_baggages}, {@code total_price += 50 * nonfree_baggages}).
 */
public final class PyArith {
    private PyArith() {}

    /** Repetition results beyond this many elements are refused (CPython would exhaust memory). */
    private static final long MAX_REPEAT = 1L << 28;

    public static Value add(Value a, Value b) {
        return add(a, b, "+");
    }

    public static Value sub(Value a, Value b) {
        return sub(a, b, "-");
    }

    public static Value mul(Value a, Value b) {
        return mul(a, b, "*");
    }

    /** {@code a += b} on immutable operands and lists ({@code list.__iadd__} extends with any iterable). */
    public static Value iadd(Value a, Value b) {
        if (a instanceof PyList l) {
            List<Value> out = new ArrayList<>(l.items());
            out.addAll(PyBuiltins.iterate(b));
            return PyList.of(out);
        }
        return add(a, b, "+=");
    }

    public static Value isub(Value a, Value b) {
        return sub(a, b, "-=");
    }

    /**
     * {@code a *= b} ({@code list.__imul__} repeats in place: same result as {@code *}). One difference
     * from {@code *} (Objects/abstract.c PyNumber_InPlaceMultiply): a left operand with sequence methods
     * but no repeat (a dict) does not let the right operand repeat.
     */
    public static Value imul(Value a, Value b) {
        if (a instanceof PyDict && !(isNumber(b))) throw unsupported("*=", a, b);
        return mul(a, b, "*=");
    }

    /** {@code -a}. */
    public static Value neg(Value a) {
        return switch (a) {
            case PyInt i -> new PyInt(i.value().negate());
            case PyBool b -> PyInt.of(b.value() ? -1 : 0);
            case PyFloat f -> new PyFloat(-f.value());
            default -> throw PyException.typeError("bad operand type for unary -: '" + a.typeName() + "'");
        };
    }

    private static Value add(Value a, Value b, String op) {
        if (isNumber(a) && isNumber(b)) {
            if (isIntegral(a) && isIntegral(b)) return new PyInt(integral(a).add(integral(b)));
            return new PyFloat(PyBuiltins.toDouble(a) + PyBuiltins.toDouble(b));
        }
        if (a instanceof PyStr s) {
            if (b instanceof PyStr t) return new PyStr(s.value() + t.value());
            throw PyException.typeError("can only concatenate str (not \"" + b.typeName() + "\") to str");
        }
        if (a instanceof PyList l) {
            if (b instanceof PyList m) {
                List<Value> out = new ArrayList<>(l.size() + m.size());
                out.addAll(l.items());
                out.addAll(m.items());
                return PyList.of(out);
            }
            throw PyException.typeError("can only concatenate list (not \"" + b.typeName() + "\") to list");
        }
        throw unsupported(op, a, b);
    }

    private static Value sub(Value a, Value b, String op) {
        if (isNumber(a) && isNumber(b)) {
            if (isIntegral(a) && isIntegral(b)) return new PyInt(integral(a).subtract(integral(b)));
            return new PyFloat(PyBuiltins.toDouble(a) - PyBuiltins.toDouble(b));
        }
        throw unsupported(op, a, b);
    }

    private static Value mul(Value a, Value b, String op) {
        if (isNumber(a) && isNumber(b)) {
            if (isIntegral(a) && isIntegral(b)) return new PyInt(integral(a).multiply(integral(b)));
            return new PyFloat(PyBuiltins.toDouble(a) * PyBuiltins.toDouble(b));
        }
        // Objects/abstract.c PyNumber_Multiply: neither operand has nb_multiply for the pair, so the
        // sequence's sq_repeat is tried (left first), which needs an index-like count.
        if (isSequence(a)) return repeat(a, b);
        if (isSequence(b)) return repeat(b, a);
        throw unsupported(op, a, b);
    }

    private static Value repeat(Value seq, Value count) {
        if (!isIntegral(count)) {
            throw PyException.typeError("can't multiply sequence by non-int of type '" + count.typeName() + "'");
        }
        BigInteger n = integral(count);
        if (n.bitLength() > 63) throw new PyException("OverflowError", "cannot fit 'int' into an index-sized integer");
        long times = Math.max(0, n.longValue());
        if (seq instanceof PyStr s) {
            if (times * s.value().length() > MAX_REPEAT) throw new PyException("MemoryError", "");
            return new PyStr(s.value().repeat((int) times));
        }
        PyList l = (PyList) seq;
        if (times * l.size() > MAX_REPEAT) throw new PyException("MemoryError", "");
        List<Value> out = new ArrayList<>((int) (times * l.size()));
        for (long i = 0; i < times; i++) out.addAll(l.items());
        return PyList.of(out);
    }

    private static PyException unsupported(String op, Value a, Value b) {
        return PyException.typeError(
                "unsupported operand type(s) for " + op + ": '" + a.typeName() + "' and '" + b.typeName() + "'");
    }

    private static boolean isSequence(Value v) {
        return v instanceof PyStr || v instanceof PyList;
    }

    private static boolean isNumber(Value v) {
        return v instanceof PyInt || v instanceof PyBool || v instanceof PyFloat;
    }

    private static boolean isIntegral(Value v) {
        return v instanceof PyInt || v instanceof PyBool;
    }

    private static BigInteger integral(Value v) {
        return PyBuiltins.bigInt(v);
    }
}
