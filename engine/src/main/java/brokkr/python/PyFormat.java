package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's {@code format(x, spec)} (= {@code f"{x:spec}"}) for int and float, after
 * Python/formatter_unicode.c. Spec: {@code [[fill]align][sign][z][#][0][width][,|_][.precision][type]}
 * with type one of {@code f F e E g G %} (floats, and ints converted to float), {@code d} (ints),
 * or none (ints as {@code d}; floats as {@code repr}, or with a precision as {@code g} keeping a
 * {@code .0}).
 *
 * <p>Digits come from the exact binary value rounded half-even ({@code new BigDecimal(double)}),
 * which is what CPython's correctly rounded dtoa produces; {@link String#format} rounds half-up on
 * a decimal approximation and disagrees (e.g. {@code format(0.125, '.2f') == '0.12'}).
 * The types {@code n b o x X c s} are not supported and raise {@link UnsupportedOperationException}.
 */
public final class PyFormat {
    private PyFormat() {}

    /** {@code format(x, spec)}. */
    public static String format(Value x, String spec) {
        Spec s = Spec.parse(spec);
        return switch (x) {
            case PyFloat f -> formatFloat(f.value(), s);
            case PyInt i -> formatInt(i.value(), s);
            case PyBool b -> spec.isEmpty() ? (b.value() ? "True" : "False") : formatInt(BigInteger.valueOf(b.value() ? 1 : 0), s);
            default -> throw new UnsupportedOperationException("format() of " + x.typeName());
        };
    }

    /** {@code format(x, spec)} for a float. */
    public static String format(double x, String spec) { return formatFloat(x, Spec.parse(spec)); }

    /** {@code format(x, '.Nf')}: fixed point with N decimals. */
    public static String fixed(double x, int decimals) {
        StringBuilder sb = new StringBuilder(24);
        if (Double.isNaN(x)) return "nan";
        if (Math.copySign(1.0, x) < 0) sb.append('-');
        if (Double.isInfinite(x)) return sb.append("inf").toString();
        return sb.append(fixedDigits(Math.abs(x), decimals, false)).toString();
    }

    /** Parsed format spec (Python/formatter_unicode.c parse_internal_render_format_spec). */
    record Spec(int fill, char align, char sign, boolean z, boolean alternate, int width, char grouping,
                int precision, char type) {
        static Spec parse(String spec) {
            int i = 0, n = spec.length();
            int fill = ' ';
            char align = 0;
            boolean fillGiven = false;
            if (n > 0) {
                int first = spec.codePointAt(0);
                int after = Character.charCount(first);
                if (after < n && isAlign(spec.charAt(after))) {
                    fill = first;
                    fillGiven = true;
                    align = spec.charAt(after);
                    i = after + 1;
                } else if (isAlign(spec.charAt(0))) {
                    align = spec.charAt(0);
                    i = 1;
                }
            }
            char sign = 0;
            if (i < n && (spec.charAt(i) == '+' || spec.charAt(i) == '-' || spec.charAt(i) == ' ')) sign = spec.charAt(i++);
            boolean z = false;
            if (i < n && spec.charAt(i) == 'z') { z = true; i++; }
            boolean alternate = false;
            if (i < n && spec.charAt(i) == '#') { alternate = true; i++; }
            if (i < n && spec.charAt(i) == '0') {
                // "0" before the width: sign-aware zero padding unless an alignment was given.
                if (!fillGiven) fill = '0';
                if (align == 0) align = '=';
                i++;
            }
            int width = -1;
            int ws = i;
            while (i < n && Character.isDigit(spec.charAt(i))) i++;
            if (i > ws) width = Integer.parseInt(spec, ws, i, 10);
            char grouping = 0;
            if (i < n && (spec.charAt(i) == ',' || spec.charAt(i) == '_')) grouping = spec.charAt(i++);
            int precision = -1;
            if (i < n && spec.charAt(i) == '.') {
                i++;
                int ps = i;
                while (i < n && Character.isDigit(spec.charAt(i))) i++;
                if (i == ps) throw PyException.valueError("Format specifier missing precision");
                precision = Integer.parseInt(spec, ps, i, 10);
            }
            char type = 0;
            if (i < n) type = spec.charAt(i++);
            if (i < n) throw PyException.valueError("Invalid format specifier '" + spec + "' for object");
            return new Spec(fill, align, sign, z, alternate, width, grouping, precision, type);
        }

        private static boolean isAlign(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }
    }

    static String formatFloat(double x, Spec s) {
        char type = s.type();
        int precision = s.precision();
        String body;
        boolean upper = type == 'F' || type == 'E' || type == 'G';
        boolean negative = Math.copySign(1.0, x) < 0 && !Double.isNaN(x);
        String suffix = "";
        if (type == '%') { x *= 100; suffix = "%"; negative = Math.copySign(1.0, x) < 0 && !Double.isNaN(x); }
        double ax = Math.abs(x);
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            body = Double.isNaN(x) ? "nan" : "inf";
            if (upper) body = body.toUpperCase();
            body += suffix;
        } else {
            switch (type) {
                case 'f', 'F', '%' -> body = fixedDigits(ax, precision < 0 ? 6 : precision, s.alternate()) + suffix;
                case 'e', 'E' -> body = expDigits(ax, precision < 0 ? 6 : precision, s.alternate(), upper ? 'E' : 'e');
                case 'g', 'G' -> body = general(ax, precision < 0 ? 6 : precision, s.alternate(), false, upper ? 'E' : 'e');
                case 0 -> body = precision < 0 ? PyFloats.repr(ax) : general(ax, precision, s.alternate(), true, 'e');
                default -> throw new UnsupportedOperationException("float format type '" + type + "'");
            }
            // 'z' turns a negative zero (after rounding) into a positive one.
            if (s.z() && negative && isZero(body)) negative = false;
        }
        return layout(negative, body, s);
    }

    static String formatInt(BigInteger v, Spec s) {
        switch (s.type()) {
            case 0, 'd' -> {
                if (s.precision() >= 0) throw PyException.valueError("Precision not allowed in integer format specifier");
                return layout(v.signum() < 0, v.abs().toString(), s);
            }
            case 'f', 'F', 'e', 'E', 'g', 'G', '%' -> {
                double d = v.doubleValue();
                if (Double.isInfinite(d)) throw new PyException("OverflowError", "int too large to convert to float");
                return formatFloat(d, s);
            }
            default -> throw new UnsupportedOperationException("int format type '" + s.type() + "'");
        }
    }

    private static boolean isZero(String body) {
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c >= '1' && c <= '9') return false;
            if (c == 'e' || c == 'E') break;
        }
        return true;
    }

    /** Non-negative finite {@code ax} with {@code decimals} digits after the point, exact half-even. */
    static String fixedDigits(double ax, int decimals, boolean alternate) {
        String digits = new BigDecimal(ax).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        return decimals == 0 && alternate ? digits + "." : digits;
    }

    /** Non-negative finite {@code ax} as d.ddd(precision)e±XX, exact half-even. */
    static String expDigits(double ax, int precision, boolean alternate, char e) {
        String digits;
        int exp;
        if (ax == 0.0) {
            digits = "0".repeat(precision + 1);
            exp = 0;
        } else {
            BigDecimal r = new BigDecimal(ax).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
            BigInteger unscaled = r.unscaledValue();
            digits = unscaled.toString();
            exp = digits.length() - 1 - r.scale();
            // Pad to the requested number of digits (BigDecimal may keep fewer when trailing zeros vanished).
            if (digits.length() < precision + 1) digits = digits + "0".repeat(precision + 1 - digits.length());
            else if (digits.length() > precision + 1) digits = digits.substring(0, precision + 1);
        }
        StringBuilder sb = new StringBuilder(precision + 8);
        sb.append(digits.charAt(0));
        if (precision > 0 || alternate) sb.append('.');
        sb.append(digits, 1, digits.length());
        sb.append(e).append(exp < 0 ? '-' : '+');
        int ae = Math.abs(exp);
        if (ae < 10) sb.append('0');
        sb.append(ae);
        return sb.toString();
    }

    /**
     * The 'g' type (Python/pystrtod.c format_float_short, dtoa mode 2): {@code precision} significant
     * digits (0 counts as 1), trailing zeros dropped unless '#'; exponent form when the decimal
     * exponent is below -4 or not below the precision. {@code addDot0} is the typeless spec with a
     * precision ({@code format(12.0, '.3') == '12.0'}): one digit fewer before switching to the
     * exponent, and an integral fixed-point result gets ".0".
     */
    static String general(double ax, int precision, boolean alternate, boolean addDot0, char e) {
        int p = precision == 0 ? 1 : precision;
        String digits;
        int decpt;
        if (ax == 0.0) {
            digits = "0";
            decpt = 1;
        } else {
            BigDecimal r = new BigDecimal(ax).round(new MathContext(p, RoundingMode.HALF_EVEN)).stripTrailingZeros();
            digits = r.unscaledValue().toString();
            decpt = digits.length() - r.scale();
        }
        if (alternate && digits.length() < p) digits = digits + "0".repeat(p - digits.length());
        int nd = digits.length();
        boolean useExp = decpt <= -4 || decpt > (addDot0 ? p - 1 : p);
        StringBuilder sb = new StringBuilder(nd + 8);
        if (useExp) {
            sb.append(digits.charAt(0));
            if (nd > 1 || alternate) sb.append('.').append(digits, 1, nd);
            int x = decpt - 1;
            sb.append(e).append(x < 0 ? '-' : '+');
            if (Math.abs(x) < 10) sb.append('0');
            sb.append(Math.abs(x));
        } else if (decpt <= 0) {
            sb.append("0.").repeat('0', -decpt).append(digits);
        } else if (decpt < nd) {
            sb.append(digits, 0, decpt).append('.').append(digits, decpt, nd);
        } else {
            sb.append(digits).repeat('0', decpt - nd);
            if (alternate) sb.append('.');
            else if (addDot0) sb.append(".0");
        }
        return sb.toString();
    }

    /**
     * Sign, grouping and padding (formatter_unicode.c calc_number_widths / fill_number): {@code body}
     * is the unsigned text, its leading decimal digits are the part that gets grouped (and, with
     * '0' fill and '=' alignment, zero-extended to the width, separators included).
     */
    static String layout(boolean negative, String body, Spec s) {
        String sign = negative ? "-" : s.sign() == '+' ? "+" : s.sign() == ' ' ? " " : "";
        int nDigits = 0;
        while (nDigits < body.length() && Character.isDigit(body.charAt(nDigits)) && body.charAt(nDigits) < 0x80) nDigits++;
        String rest = body.substring(nDigits);
        char align = s.align() == 0 ? '>' : s.align();
        String grouped;
        if (nDigits == 0) {
            grouped = "";
        } else {
            int minWidth = (s.fill() == '0' && align == '=') ? Math.max(0, s.width() - sign.length() - rest.length()) : 0;
            grouped = group(body.substring(0, nDigits), s.grouping(), minWidth);
        }
        int total = sign.length() + grouped.length() + rest.length();
        int pad = Math.max(0, s.width() - total);
        StringBuilder sb = new StringBuilder(total + pad);
        int left = switch (align) {
            case '<' -> 0;
            case '^' -> pad / 2;
            case '=' -> -1;
            default -> pad;
        };
        if (left > 0) sb.repeat(s.fill(), left);
        sb.append(sign);
        if (left < 0) sb.repeat(s.fill(), pad);
        sb.append(grouped).append(rest);
        int right = align == '<' ? pad : align == '^' ? pad - pad / 2 : 0;
        if (right > 0) sb.repeat(s.fill(), right);
        return sb.toString();
    }

    /**
     * Objects/unicodeobject.c _PyUnicode_InsertThousandsGrouping with groups of 3: digits are
     * taken right to left, zero-extended until {@code minWidth} characters (separators counted) are
     * produced; a separator is never the first character.
     */
    static String group(String digits, char sep, int minWidth) {
        if (sep == 0) {
            return digits.length() >= minWidth ? digits : "0".repeat(minWidth - digits.length()) + digits;
        }
        StringBuilder rev = new StringBuilder(digits.length() + digits.length() / 3 + 2);
        int remaining = digits.length();
        boolean useSep = false;
        while (true) {
            int l = Math.min(3, Math.max(Math.max(remaining, minWidth), 1));
            int nZeros = Math.max(0, l - remaining);
            int nChars = Math.max(0, Math.min(remaining, l));
            if (useSep) rev.append(sep);
            for (int k = 0; k < nChars; k++) rev.append(digits.charAt(remaining - 1 - k));
            for (int k = 0; k < nZeros; k++) rev.append('0');
            useSep = true;
            remaining -= nChars;
            minWidth -= l;
            if (remaining <= 0 && minWidth <= 0) break;
            minWidth -= 1;
        }
        return rev.reverse().toString();
    }
}
