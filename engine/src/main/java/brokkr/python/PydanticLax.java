package brokkr.python;

import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.math.BigInteger;

/**
 * pydantic-core 2.27.2's lax-mode number coercions (src/input/shared.rs): {@code str_as_int},
 * {@code str_as_float} and {@code float_as_int}. Each returns the coerced value, or the pydantic error
 * type that rejects the input ({@code int_parsing}, {@code int_parsing_size}, {@code int_from_float},
 * {@code finite_number}, {@code float_parsing}).
 */
final class PydanticLax {
    private PydanticLax() {}

    /** A coercion's outcome: a value, or the error type that rejected the input. */
    record Coerced(Value value, String errorType) {
        static Coerced ok(Value v) {
            return new Coerced(v, null);
        }

        static Coerced error(String type) {
            return new Coerced(null, type);
        }
    }

    /** jiter's {@code NumberInt::try_from}: JSON's int grammar over the whole text; null when it does not match. */
    private static final String SIZE = "int_parsing_size";

    /**
     * {@code str_as_int}: the text as a JSON int; if that fails (other than by size), the text cleaned
     * ({@code clean_int_str}: trimmed, one leading {@code +}, leading zeros, a {@code .0+} fraction and
     * single inner underscores removed) as a JSON int.
     */
    static Coerced strAsInt(String s) {
        Object first = jsonInt(s);
        if (first == SIZE) return Coerced.error(SIZE);
        if (first instanceof BigInteger i) return Coerced.ok(new PyInt(i));
        String cleaned = cleanIntStr(s);
        if (cleaned == null) return Coerced.error("int_parsing");
        return jsonInt(cleaned) instanceof BigInteger i ? Coerced.ok(new PyInt(i)) : Coerced.error("int_parsing");
    }

    /**
     * jiter {@code IntParse::parse} + {@code NumberInt::try_from}: {@code -?(0|[1-9][0-9]*)} spanning the
     * whole text gives the int; a digit run reaching past 4300 characters (sign included) is
     * {@code NumberOutOfRange} whatever follows it; anything else is not an int (null).
     */
    private static Object jsonInt(String s) {
        int n = s.length(), i = 0;
        if (n == 0) return null;
        if (s.charAt(0) == '-') i++;
        if (i >= n) return null;
        char c = s.charAt(i);
        if (c == '0') return i + 1 == n ? BigInteger.ZERO : null;
        if (c < '1' || c > '9') return null;
        int start = i;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
        if (i > PyInts.MAX_STR_DIGITS) return SIZE; // (index - start) > 4300, start at the sign
        if (i != n) return null;
        return new BigInteger(s.substring(start - (s.charAt(0) == '-' ? 1 : 0)));
    }

    /** {@code clean_int_str}; null where it gives up. */
    static String cleanIntStr(String original) {
        String s = rustTrim(original);
        if (s.startsWith("+")) {
            if (s.startsWith("+-")) return null;
            s = s.substring(1);
        }
        boolean negative = false;
        if (s.startsWith("-")) {
            if (s.startsWith("--") || s.startsWith("-+")) return null;
            negative = true;
            s = s.substring(1);
        }
        s = stripLeadingZeros(s);
        if (s == null) return null;
        int dot = s.indexOf('.');
        if (dot >= 0) {
            String decimals = s.substring(dot + 1);
            if (!decimals.isEmpty() && decimals.chars().allMatch(ch -> ch == '0')) s = s.substring(0, dot);
        }
        String stripped = stripUnderscores(s);
        if (stripped != null) return negative ? "-" + stripped : stripped;
        if (original.length() == s.length()) return null; // unchanged: the first parse already failed on it
        return negative ? "-" + s : s;
    }

    /** {@code strip_leading_zeros}: keeps one zero (before a '.', or of an all-zero run); null if no digit starts. */
    private static String stripLeadingZeros(String s) {
        if (s.isEmpty()) return null;
        char c0 = s.charAt(0);
        if (c0 != '0') return (c0 >= '1' && c0 <= '9') || c0 == '-' ? s : null;
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '0' || c == '_') continue;
            if ((c >= '1' && c <= '9') || c == '-') return s.substring(i);
            if (c == '.') return s.substring(i - 1);
            return null;
        }
        return s.substring(s.length() - 1);
    }

    /** {@code strip_underscores}: null unless the text has underscores, none leading, trailing or doubled. */
    private static String stripUnderscores(String s) {
        if (s.startsWith("_") || s.endsWith("_") || !s.contains("_") || s.contains("__")) return null;
        return s.replace("_", "");
    }

    /** {@code str_as_float}: Rust's {@code f64::from_str} of the trimmed text, else of the untrimmed text without underscores. */
    static Coerced strAsFloat(String s) {
        Double d = rustParseF64(rustTrim(s));
        if (d == null) {
            String stripped = stripUnderscores(s);
            if (stripped != null) d = rustParseF64(stripped);
        }
        return d == null ? Coerced.error("float_parsing") : Coerced.ok(new PyFloat(d));
    }

    /** {@code float_as_int}. */
    static Coerced floatAsInt(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return Coerced.error("finite_number");
        if (x % 1.0 != 0.0) return Coerced.error("int_from_float");
        if (-0x1p63 < x && x < 0x1p63) return Coerced.ok(PyInt.of((long) x));
        return Coerced.error(SIZE);
    }

    /**
     * Rust's {@code f64::from_str}: {@code [+-]? (inf | infinity | nan | (D+ | D+ '.' D* | D* '.' D+) (e [+-]? D+)?)},
     * case-insensitive, no surrounding whitespace; overflow gives infinity. Null when the text does not match.
     */
    static Double rustParseF64(String s) {
        int n = s.length(), i = 0;
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) negative = s.charAt(i++) == '-';
        String rest = s.substring(i).toLowerCase(java.util.Locale.ROOT);
        if (rest.equals("inf") || rest.equals("infinity"))
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (rest.equals("nan")) return Double.NaN;
        int intDigits = 0, fracDigits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            intDigits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                fracDigits++;
            }
        }
        if (intDigits + fracDigits == 0) return null;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                expDigits++;
            }
            if (expDigits == 0) return null;
        }
        if (i != n) return null;
        return Double.parseDouble(s); // the same correctly rounded value for this grammar
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Rust's {@code str::trim}: strips Unicode {@code White_Space} characters from both ends. */
    static String rustTrim(String s) {
        int a = 0, b = s.length();
        while (a < b && isRustWhitespace(s.charAt(a))) a++;
        while (b > a && isRustWhitespace(s.charAt(b - 1))) b--;
        return s.substring(a, b);
    }

    private static boolean isRustWhitespace(char c) {
        return (c >= 0x09 && c <= 0x0d)
                || c == 0x20
                || c == 0x85
                || c == 0xa0
                || c == 0x1680
                || (c >= 0x2000 && c <= 0x200a)
                || c == 0x2028
                || c == 0x2029
                || c == 0x202f
                || c == 0x205f
                || c == 0x3000;
    }
}
