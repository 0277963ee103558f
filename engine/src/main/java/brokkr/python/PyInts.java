package brokkr.python;

import java.math.BigInteger;

/** Python {@code int} conversions that differ from Java's. */
public final class PyInts {
    private PyInts() {}

    /** {@code sys.int_info.default_max_str_digits} (3.11+, CVE-2020-10735). */
    public static final int MAX_STR_DIGITS = 4300;

    /** 10^4300 has 14285 bits: anything shorter has at most 4300 digits. */
    private static final int SAFE_BITS = 14284;

    /**
     * {@code repr(int)} / {@code str(int)}: decimal, but CPython 3.11+ refuses more than 4300 digits
     * (Objects/longobject.c long_to_decimal_string_internal) with a ValueError.
     */
    public static String toDecimal(BigInteger v) {
        if (v.bitLength() < 64) return Long.toString(v.longValue());
        String s = v.toString();
        if (v.bitLength() >= SAFE_BITS && s.length() - (v.signum() < 0 ? 1 : 0) > MAX_STR_DIGITS) {
            throw PyException.valueError("Exceeds the limit (" + MAX_STR_DIGITS
                    + " digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit");
        }
        return s;
    }

    /**
     * {@code int(text)} for a decimal literal already known to be well-formed ([-]digits): CPython
     * 3.11+ refuses more than 4300 digits (Objects/longobject.c PyLong_FromString).
     */
    public static BigInteger parseDecimal(String text, int from, int to) {
        int digits = to - from - (text.charAt(from) == '-' ? 1 : 0);
        if (digits > MAX_STR_DIGITS) {
            throw PyException.valueError("Exceeds the limit (" + MAX_STR_DIGITS
                    + " digits) for integer string conversion: value has " + digits
                    + " digits; use sys.set_int_max_str_digits() to increase the limit");
        }
        if (to - from <= 18) return BigInteger.valueOf(Long.parseLong(text, from, to, 10));
        return new BigInteger(text.substring(from, to));
    }
}
