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

    /** Appends {@link #repr}{@code (x)} to {@code out}. */
    public static void appendRepr(double x, StringBuilder out) {
        if (Double.isNaN(x) || Double.isInfinite(x) || x == 0.0) {
            out.append(repr(x));
            return;
        }
        if (x < 0) out.append('-');
        double ax = Math.abs(x);
        // Fast path: integral values below 2^53 print as "<int>.0" (CPython: decpt <= 16, no exponent).
        if (ax < 1e16 && ax == Math.rint(ax)) {
            out.append((long) ax).append(".0");
            return;
        }
        long bits = Double.doubleToRawLongBits(ax);
        int slot = (int) (bits ^ (bits >>> 29) ^ (bits >>> 43)) & (MEMO_SLOTS - 1);
        Memo memo = MEMO[slot];
        if (memo != null && memo.bits == bits) {
            out.append(memo.text);
            return;
        }
        int start = out.length();
        appendDigits(ax, out);
        MEMO[slot] = new Memo(bits, out.substring(start));
    }

    /**
     * The last text made per slot (direct-mapped on the bits): states and results repeat the same prices and
     * amounts thousands of times, and a two-digit value costs a parse and a BigDecimal check ({@link #oneDigit}).
     * A slot holds one immutable record, so a racing reader sees an old or a new entry, never a torn one.
     */
    private record Memo(long bits, String text) {}

    private static final int MEMO_SLOTS = 4096;
    private static final Memo[] MEMO = new Memo[MEMO_SLOTS];

    private static void appendDigits(double ax, StringBuilder out) {
        // Digits straight from Double.toString's text into a small buffer: no intermediate strings.
        String t = Double.toString(ax);
        char[] digits = new char[20];
        int nd = 0, decpt = 0, exp = 0;
        boolean seenDot = false;
        int n = t.length();
        for (int i = 0; i < n; i++) {
            char c = t.charAt(i);
            if (c == '.') {
                seenDot = true;
                continue;
            }
            if (c == 'E') {
                exp = Integer.parseInt(t, i + 1, n, 10);
                break;
            }
            if (c == '0' && nd == 0) {
                if (seenDot) decpt--;
                continue;
            } // leading zeros
            digits[nd++] = c;
            if (!seenDot) decpt++;
        }
        decpt += exp;
        while (nd > 1 && digits[nd - 1] == '0') nd--;
        if (nd == 2) {
            Decimal one = oneDigit(ax, new String(digits, 0, 2), decpt);
            if (one != null) {
                digits[0] = one.digits.charAt(0);
                nd = 1;
                decpt = one.decpt;
            }
        }
        // CPython float_repr_style 'short' / format code 'r' (Python/pystrtod.c format_float_short):
        // exponent iff decpt <= -4 or decpt > 16.
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                out.append("0.");
                out.repeat('0', -decpt);
                out.append(digits, 0, nd);
            } else if (decpt >= nd) {
                out.append(digits, 0, nd);
                out.repeat('0', decpt - nd);
                out.append(".0");
            } else {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, nd - decpt);
            }
        } else {
            out.append(digits[0]);
            if (nd > 1) out.append('.').append(digits, 1, nd - 1);
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
        while (lead < digitsB.length() - 1 && digitsB.charAt(lead) == '0') {
            lead++;
            decpt--;
        }
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
            int c = toBig(down)
                    .subtract(exact)
                    .abs()
                    .compareTo(toBig(up).subtract(exact).abs());
            if (c != 0) return c < 0 ? down : up;
            return (d1 % 2 == 0) ? down : up;
        }
        return downOk ? down : upOk ? up : null;
    }

    private static double parse(Decimal d) {
        return Double.parseDouble(d.digits + "E" + (d.decpt - d.digits.length()));
    }

    private static BigDecimal toBig(Decimal d) {
        return new BigDecimal(d.digits + "E" + (d.decpt - d.digits.length()));
    }
}
