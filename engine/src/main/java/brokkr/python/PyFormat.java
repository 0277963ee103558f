package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's {@code format(x, spec)} (= {@code f"{x:spec}"}, {@code "{:spec}".format(x)}), after
 * Python/formatter_unicode.c. Spec: {@code [[fill]align][sign][z][#][0][width][,|_][.precision][type]}.
 * Floats: {@code f F e E g G n %} or none ({@code repr}, or with a precision {@code g} keeping a
 * {@code .0}); ints: {@code d n b o x X} or none, and the float types after conversion; bool: as
 * int except that the empty spec gives {@code True}/{@code False}; str: {@code s} or none (fill,
 * align, width, truncating precision); None, list, dict: only the empty spec ({@code str(x)}).
 * Invalid specs raise CPython's ValueError/TypeError texts; {@code n} assumes the C locale.
 *
 * <p>Digits come from the exact binary value rounded half-even ({@code new BigDecimal(double)}),
 * which is what CPython's correctly rounded dtoa produces; {@link String#format} rounds half-up on
 * a decimal approximation and disagrees (e.g. {@code format(0.125, '.2f') == '0.12'}).
 * The int type {@code c} is not supported ({@link UnsupportedOperationException}).
 */
public final class PyFormat {
    private PyFormat() {}

    /** {@code format(x, spec)}. */
    public static String format(Value x, String spec) {
        return switch (x) {
            case PyFloat f -> formatFloat(f.value(), Spec.parse(spec, '>', (char) 0));
            case PyInt i -> formatInt(i.value(), Spec.parse(spec, '>', 'd'), "int");
            // bool.__format__ is int.__format__, except that the empty spec means str(b).
            case PyBool b ->
                spec.isEmpty()
                        ? (b.value() ? "True" : "False")
                        : formatInt(BigInteger.valueOf(b.value() ? 1 : 0), Spec.parse(spec, '>', 'd'), "bool");
            case PyStr str -> formatStr(str.value(), Spec.parse(spec, '<', 's'));
            // object.__format__: only the empty spec, meaning str(x).
            default -> {
                if (!spec.isEmpty())
                    throw PyException.typeError("unsupported format string passed to " + x.typeName() + ".__format__");
                yield PyRepr.str(x);
            }
        };
    }

    /** {@code format(x, spec)} for a float. */
    public static String format(double x, String spec) {
        return formatFloat(x, Spec.parse(spec, '>', (char) 0));
    }

    /** {@code format(x, '.Nf')}: fixed point with N decimals. */
    public static String fixed(double x, int decimals) {
        StringBuilder sb = new StringBuilder(24);
        if (Double.isNaN(x)) return "nan";
        if (Math.copySign(1.0, x) < 0) sb.append('-');
        if (Double.isInfinite(x)) return sb.append("inf").toString();
        return sb.append(fixedDigits(Math.abs(x), decimals, false)).toString();
    }

    /** Parsed format spec (Python/formatter_unicode.c parse_internal_render_format_spec). */
    record Spec(
            int fill,
            char align,
            char sign,
            boolean z,
            boolean alternate,
            int width,
            char grouping,
            int precision,
            char type) {
        /** {@code defaultAlign}: '>' for numbers, '<' for str; {@code defaultType}: 'd' for int, 's' for str, none for float. */
        static Spec parse(String spec, char defaultAlign, char defaultType) {
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
            if (i < n && (spec.charAt(i) == '+' || spec.charAt(i) == '-' || spec.charAt(i) == ' '))
                sign = spec.charAt(i++);
            boolean z = false;
            if (i < n && spec.charAt(i) == 'z') {
                z = true;
                i++;
            }
            boolean alternate = false;
            if (i < n && spec.charAt(i) == '#') {
                alternate = true;
                i++;
            }
            if (!fillGiven && i < n && spec.charAt(i) == '0') {
                // "0" before the width: zero fill, and sign-aware ('=') for numbers unless aligned.
                fill = '0';
                if (align == 0 && defaultAlign == '>') align = '=';
                i++;
            }
            if (align == 0) align = defaultAlign;
            int width = -1;
            int ws = i;
            while (i < n && isAsciiDigit(spec.charAt(i))) i++;
            if (i > ws) width = Integer.parseInt(spec, ws, i, 10);
            char grouping = 0;
            if (i < n && (spec.charAt(i) == ',' || spec.charAt(i) == '_')) grouping = spec.charAt(i++);
            int precision = -1;
            if (i < n && spec.charAt(i) == '.') {
                i++;
                int ps = i;
                while (i < n && isAsciiDigit(spec.charAt(i))) i++;
                if (i == ps) throw PyException.valueError("Format specifier missing precision");
                precision = Integer.parseInt(spec, ps, i, 10);
            }
            char type = defaultType;
            if (i < n) type = spec.charAt(i++);
            if (i < n) throw PyException.valueError("Invalid format specifier '" + spec + "' for object");
            if (grouping != 0) {
                // PEP 378 / PEP 515: ',' only for decimal types; '_' also groups b, o, x, X by four.
                boolean ok = switch (type) {
                    case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0 -> true;
                    case 'b', 'o', 'x', 'X' -> grouping == '_';
                    default -> false;
                };
                if (!ok) throw PyException.valueError("Cannot specify '" + grouping + "' with '" + type + "'.");
            }
            return new Spec(fill, align, sign, z, alternate, width, grouping, precision, type);
        }

        private static boolean isAsciiDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isAlign(char c) {
            return c == '<' || c == '>' || c == '=' || c == '^';
        }
    }

    static String formatFloat(double x, Spec s) {
        char type = s.type();
        int precision = s.precision();
        String body;
        boolean upper = type == 'F' || type == 'E' || type == 'G';
        boolean negative = Math.copySign(1.0, x) < 0 && !Double.isNaN(x);
        if ("eEfFgGn%".indexOf(type) < 0 && type != 0) throw unknownCode(type, "float");
        String suffix = "";
        if (type == '%') {
            x *= 100;
            suffix = "%";
            negative = Math.copySign(1.0, x) < 0 && !Double.isNaN(x);
        }
        double ax = Math.abs(x);
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            body = Double.isNaN(x) ? "nan" : "inf";
            if (upper) body = body.toUpperCase();
            body += suffix;
        } else {
            switch (type) {
                case 'f', 'F', '%' -> body = fixedDigits(ax, precision < 0 ? 6 : precision, s.alternate()) + suffix;
                case 'e', 'E' -> body = expDigits(ax, precision < 0 ? 6 : precision, s.alternate(), upper ? 'E' : 'e');
                // 'n' is 'g' with the locale's separators; the C locale has none.
                case 'g', 'G', 'n' ->
                    body = general(ax, precision < 0 ? 6 : precision, s.alternate(), false, upper ? 'E' : 'e');
                case 0 -> body = precision < 0 ? PyFloats.repr(ax) : general(ax, precision, s.alternate(), true, 'e');
                default -> throw unknownCode(type, "float");
            }
            // 'z' turns a negative zero (after rounding) into a positive one.
            if (s.z() && negative && isZero(body)) negative = false;
        }
        return layout(negative, body, s);
    }

    /** {@code typeName}: int or bool, for the unknown-code error. */
    static String formatInt(BigInteger v, Spec s, String typeName) {
        char type = s.type();
        switch (type) {
            case 0, 'd', 'n', 'b', 'o', 'x', 'X' -> {
                if (s.precision() >= 0)
                    throw PyException.valueError("Precision not allowed in integer format specifier");
                if (s.z())
                    throw PyException.valueError("Negative zero coercion (z) not allowed in integer format specifier");
                int radix = switch (type) {
                    case 'b' -> 2;
                    case 'o' -> 8;
                    case 'x', 'X' -> 16;
                    default -> 10;
                };
                String digits = v.abs().toString(radix);
                String prefix = "";
                if (type == 'X') digits = digits.toUpperCase(java.util.Locale.ROOT);
                if (s.alternate() && radix != 10) prefix = "0" + type;
                return layout(v.signum() < 0, prefix, digits, s, radix);
            }
            case 'e', 'E', 'f', 'F', 'g', 'G', '%' -> {
                double d = v.doubleValue();
                if (Double.isInfinite(d)) throw new PyException("OverflowError", "int too large to convert to float");
                return formatFloat(d, s);
            }
            case 'c' -> throw new UnsupportedOperationException("int format type 'c'");
            default -> throw unknownCode(type, typeName);
        }
    }

    /** str.__format__ (Python/formatter_unicode.c format_string_internal): align, fill, width, truncating precision. */
    static String formatStr(String v, Spec s) {
        if (s.type() != 0 && s.type() != 's') throw unknownCode(s.type(), "str");
        if (s.sign() == ' ') throw PyException.valueError("Space not allowed in string format specifier");
        if (s.sign() != 0) throw PyException.valueError("Sign not allowed in string format specifier");
        if (s.z()) throw PyException.valueError("Negative zero coercion (z) not allowed in string format specifier");
        if (s.alternate()) throw PyException.valueError("Alternate form (#) not allowed in string format specifier");
        if (s.align() == '=') throw PyException.valueError("'=' alignment not allowed in string format specifier");
        int len = v.codePointCount(0, v.length());
        if (s.precision() >= 0 && len > s.precision()) {
            v = v.substring(0, v.offsetByCodePoints(0, s.precision()));
            len = s.precision();
        }
        int pad = Math.max(0, s.width() - len);
        if (pad == 0) return v;
        int left = switch (s.align()) {
            case '>' -> pad;
            case '^' -> pad / 2;
            default -> 0;
        };
        StringBuilder sb = new StringBuilder(v.length() + pad);
        sb.repeat(s.fill(), left).append(v).repeat(s.fill(), pad - left);
        return sb.toString();
    }

    private static PyException unknownCode(char type, String typeName) {
        return PyException.valueError("Unknown format code '" + type + "' for object of type '" + typeName + "'");
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
        String digits =
                new BigDecimal(ax).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
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
            BigDecimal r = new BigDecimal(ax)
                    .round(new MathContext(p, RoundingMode.HALF_EVEN))
                    .stripTrailingZeros();
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
        return layout(negative, "", body, s, 10);
    }

    /** As above, with a radix prefix ("0x") between sign and digits; digits of a radix other than 10 group by 4. */
    static String layout(boolean negative, String prefix, String body, Spec s, int radix) {
        int groupSize = radix == 10 ? 3 : 4;
        String sign = (negative ? "-" : s.sign() == '+' ? "+" : s.sign() == ' ' ? " " : "") + prefix;
        int nDigits = 0;
        while (nDigits < body.length()
                && Character.digit(body.charAt(nDigits), radix) >= 0
                && body.charAt(nDigits) < 0x80) nDigits++;
        String rest = body.substring(nDigits);
        char align = s.align() == 0 ? '>' : s.align();
        String grouped;
        if (nDigits == 0) {
            grouped = "";
        } else {
            int minWidth =
                    (s.fill() == '0' && align == '=') ? Math.max(0, s.width() - sign.length() - rest.length()) : 0;
            grouped = group(body.substring(0, nDigits), s.grouping(), minWidth, groupSize);
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
     * Objects/unicodeobject.c _PyUnicode_InsertThousandsGrouping with groups of 3 (4 for b/o/x): digits are
     * taken right to left, zero-extended until {@code minWidth} characters (separators counted) are
     * produced; a separator is never the first character.
     */
    static String group(String digits, char sep, int minWidth, int groupSize) {
        if (sep == 0) {
            return digits.length() >= minWidth ? digits : "0".repeat(minWidth - digits.length()) + digits;
        }
        StringBuilder rev = new StringBuilder(digits.length() + digits.length() / 3 + 2);
        int remaining = digits.length();
        boolean useSep = false;
        while (true) {
            int l = Math.min(groupSize, Math.max(Math.max(remaining, minWidth), 1));
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
