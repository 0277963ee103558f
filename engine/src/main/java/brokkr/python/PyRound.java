package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Python's built-in {@code round}. Floats round half-to-even on their exact binary value (so
 * {@code round(2.675, 2) == 2.67}: 2.675 is really 2.67499999...), as CPython's correctly rounded
 * dtoa does; ints round half-to-even at negative ndigits only.
 */
public final class PyRound {
    private PyRound() {}

    /** Objects/floatobject.c: NDIGITS_MAX = (DBL_MANT_DIG - DBL_MIN_EXP) * 0.30103, NDIGITS_MIN = -(DBL_MAX_EXP + 1) * 0.30103. */
    private static final int NDIGITS_MAX = 323, NDIGITS_MIN = -308;

    /** {@code round(x)}: an int for int, bool and float arguments. */
    public static PyInt round(Value x) {
        return switch (x) {
            case PyInt i -> i;
            case PyBool b -> PyInt.of(b.value() ? 1 : 0);
            case PyFloat f -> new PyInt(round(f.value()));
            default -> throw PyException.typeError("type " + x.typeName() + " doesn't define __round__ method");
        };
    }

    /** {@code round(x, ndigits)}: a float for a float, an int for an int or bool. */
    public static Value round(Value x, int ndigits) {
        return switch (x) {
            case PyInt i -> new PyInt(round(i.value(), ndigits));
            case PyBool b -> new PyInt(round(BigInteger.valueOf(b.value() ? 1 : 0), ndigits));
            case PyFloat f -> new PyFloat(round(f.value(), ndigits));
            default -> throw PyException.typeError("type " + x.typeName() + " doesn't define __round__ method");
        };
    }

    /** {@code round(x, None)} when ndigits may be None (Java null or {@link brokkr.value.PyNone}). */
    public static Value round(Value x, Value ndigits) {
        if (ndigits == null || ndigits.isNone()) return round(x);
        if (ndigits instanceof PyInt n)
            return round(
                    x,
                    n.value()
                            .max(BigInteger.valueOf(Integer.MIN_VALUE))
                            .min(BigInteger.valueOf(Integer.MAX_VALUE))
                            .intValue());
        if (ndigits instanceof PyBool b) return round(x, b.value() ? 1 : 0);
        throw PyException.typeError("'" + ndigits.typeName() + "' object cannot be interpreted as an integer");
    }

    /** {@code float.__round__(None)}: nearest integer, ties to even. */
    public static BigInteger round(double x) {
        if (Double.isNaN(x)) throw PyException.valueError("cannot convert float NaN to integer");
        if (Double.isInfinite(x)) throw new PyException("OverflowError", "cannot convert float infinity to integer");
        double r = Math.rint(x);
        if (Math.abs(r) < 0x1p62) return BigInteger.valueOf((long) r);
        return new BigDecimal(r).toBigIntegerExact();
    }

    /**
     * {@code float.__round__(ndigits)} (Objects/floatobject.c double_round): dtoa mode 3 rounds the
     * exact binary value to ndigits decimals, half-even, and the decimal is read back correctly rounded.
     * A result of zero keeps the sign of x.
     */
    public static double round(double x, int ndigits) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return x;
        if (ndigits > NDIGITS_MAX) return x;
        if (ndigits < NDIGITS_MIN) return 0.0 * x;
        if (x == 0.0) return x;
        BigDecimal r = new BigDecimal(x).setScale(ndigits, RoundingMode.HALF_EVEN);
        if (r.signum() == 0) return Math.copySign(0.0, x);
        double d = Double.parseDouble(r.toString());
        if (Double.isInfinite(d)) throw new PyException("OverflowError", "rounded value too large to represent");
        return d;
    }

    /** {@code int.__round__(ndigits)}: unchanged for ndigits >= 0, else to a multiple of 10^-ndigits, ties to even. */
    public static BigInteger round(BigInteger x, int ndigits) {
        if (ndigits >= 0) return x;
        // 10^-ndigits beyond 10 * |x|: the nearest multiple is 0. (CPython computes 10**-ndigits first,
        // which for an enormous ndigits takes unbounded time and memory; the answer it would reach is 0.)
        if (-(long) ndigits > (long) (x.bitLength() * 0.30103) + 2) return BigInteger.ZERO;
        return new BigDecimal(x).setScale(ndigits, RoundingMode.HALF_EVEN).toBigInteger();
    }
}
