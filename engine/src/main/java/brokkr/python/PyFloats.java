package brokkr.python;

import java.math.BigDecimal;

/** Python's {@code float.__repr__} (= {@code str(float)}): the shortest digits that round-trip, Python's layout. */
public final class PyFloats {
    private PyFloats() {}

    public static String repr(double x) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        if (x == 0.0) return (Double.doubleToRawLongBits(x) < 0) ? "-0.0" : "0.0";
        StringBuilder out = new StringBuilder(24);
        appendRepr(x, out);
        return out.toString();
    }

    /** Appends {@link #repr} of a finite, non-zero {@code x} (or any x) to {@code out}. */
    public static void appendRepr(double x, StringBuilder out) {
        if (Double.isNaN(x) || Double.isInfinite(x) || x == 0.0) { out.append(repr(x)); return; }
        if (x < 0) out.append('-');
        double ax = Math.abs(x);
        // Fast path: integral values below 2^53 print as "<int>.0" (CPython: decpt <= 16, no exponent).
        if (ax < 1e16 && ax == Math.rint(ax)) {
            out.append((long) ax).append(".0");
            return;
        }
        Decimal d = shortest(ax);
        String digits = d.digits;
        int decpt = d.decpt;
        // CPython float_repr_style 'short' / format code 'r' (Python/pystrtod.c format_float_short):
        // exponent iff decpt <= -4 or decpt > 16.
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                out.append("0.");
                out.repeat('0', -decpt);
                out.append(digits);
            } else if (decpt >= digits.length()) {
                out.append(digits);
                out.repeat('0', decpt - digits.length());
                out.append(".0");
            } else {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
            }
        } else {
            out.append(digits.charAt(0));
            if (digits.length() > 1) out.append('.').append(digits, 1, digits.length());
            int e = decpt - 1;
            out.append('e').append(e < 0 ? '-' : '+');
            int ae = Math.abs(e);
            if (ae < 10) out.append('0');
            out.append(ae);
        }
    }

    /** Shortest round-trip digits (no leading/trailing zeros) and decimal point position: x = 0.DIGITS × 10^decpt. */
    public record Decimal(String digits, int decpt) {}

    /**
     * CPython's {@code _Py_dg_dtoa(x, 0, ...)}: the shortest decimal that reads back as x, the closest
     * one to x when several are that short.
     *
     * <p>Java 19+ {@link Double#toString} computes the same shortest-closest decimal with one
     * documented exception: when a single digit would do, Java considers decimals of one <em>or
     * two</em> digits and keeps the closest (so {@code Double.MIN_VALUE} prints as {@code 4.9E-324}
     * where CPython prints {@code 5e-324}). A two-digit answer is therefore re-checked against the
     * one-digit decimals that bracket it.
     */
    public static Decimal shortest(double positive) {
        String s = Double.toString(positive);
        int e = s.indexOf('E');
        int mantEnd = e < 0 ? s.length() : e;
        int exp = e < 0 ? 0 : Integer.parseInt(s, e + 1, s.length(), 10);
        int dot = s.indexOf('.');
        StringBuilder digitsB = new StringBuilder(20);
        digitsB.append(s, 0, dot).append(s, dot + 1, mantEnd);
        int decpt = dot + exp;
        int lead = 0;
        while (lead < digitsB.length() - 1 && digitsB.charAt(lead) == '0') { lead++; decpt--; }
        int end = digitsB.length();
        while (end > lead + 1 && digitsB.charAt(end - 1) == '0') end--;
        String digits = digitsB.substring(lead, end);
        if (digits.length() == 2) {
            Decimal one = oneDigit(positive, digits, decpt);
            if (one != null) return one;
        }
        return new Decimal(digits, decpt);
    }

    /** The closest one-digit decimal that reads back as x, or null (then two digits are needed). */
    private static Decimal oneDigit(double x, String two, int decpt) {
        int d1 = two.charAt(0) - '0';
        Decimal down = new Decimal(String.valueOf((char) ('0' + d1)), decpt);
        Decimal up = d1 == 9 ? new Decimal("1", decpt + 1) : new Decimal(String.valueOf((char) ('0' + d1 + 1)), decpt);
        boolean downOk = parse(down) == x, upOk = parse(up) == x;
        if (downOk && upOk) {
            BigDecimal exact = new BigDecimal(x);
            int c = toBig(down).subtract(exact).abs().compareTo(toBig(up).subtract(exact).abs());
            if (c != 0) return c < 0 ? down : up;
            return (d1 % 2 == 0) ? down : up;
        }
        return downOk ? down : upOk ? up : null;
    }

    private static double parse(Decimal d) { return Double.parseDouble(d.digits + "E" + (d.decpt - d.digits.length())); }
    private static BigDecimal toBig(Decimal d) { return new BigDecimal(d.digits + "E" + (d.decpt - d.digits.length())); }
}
