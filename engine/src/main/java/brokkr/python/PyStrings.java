package brokkr.python;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Python {@code str} semantics that differ from Java's. */
public final class PyStrings {
    private PyStrings() {}

    /**
     * {@code sorted()} of str keys: {@link #compare} as one shared comparator, so that a dict caching its
     * sorted key order ({@code PyDict.sortedEntries}) recognises the order it was asked for.
     */
    public static final Comparator<String> CODE_POINT_ORDER = PyStrings::compare;

    /**
     * {@code str.isspace()} of one code point (CPython {@code Py_UNICODE_ISSPACE}): the bidirectional
     * classes WS, B, S or category Zs. Unlike {@link Character#isWhitespace}, this includes U+0085,
     * U+00A0, U+2007, U+202F and U+001C..U+001F, and it excludes U+200B, U+FEFF and U+180E.
     */
    public static boolean isSpace(int cp) {
        if (cp < 128) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
        return cp == 0x85
                || cp == 0xA0
                || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200A)
                || cp == 0x2028
                || cp == 0x2029
                || cp == 0x202F
                || cp == 0x205F
                || cp == 0x3000;
    }

    /** {@code s.split()} without arguments: the runs of non-whitespace ({@link #isSpace}), no empty strings. */
    public static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int n = s.length(), i = 0;
        while (i < n) {
            while (i < n && isSpace(s.codePointAt(i))) i += Character.charCount(s.codePointAt(i));
            if (i >= n) break;
            int start = i;
            while (i < n && !isSpace(s.codePointAt(i))) i += Character.charCount(s.codePointAt(i));
            out.add(s.substring(start, i));
        }
        return out;
    }

    /** {@code s.strip()} without arguments ({@link #isSpace} at both ends). */
    public static String strip(String s) {
        int a = 0, b = s.length();
        while (a < b && isSpace(s.codePointAt(a))) a += Character.charCount(s.codePointAt(a));
        while (b > a && isSpace(s.codePointBefore(b))) b -= Character.charCount(s.codePointBefore(b));
        return s.substring(a, b);
    }

    /** {@code s.strip(chars)}: every code point of {@code chars} removed from both ends. */
    public static String strip(String s, String chars) {
        int a = 0, b = s.length();
        while (a < b && chars.indexOf(s.codePointAt(a)) >= 0) a += Character.charCount(s.codePointAt(a));
        while (b > a && chars.indexOf(s.codePointBefore(b)) >= 0) b -= Character.charCount(s.codePointBefore(b));
        return s.substring(a, b);
    }

    /** {@code s.lower()}: the full Unicode lower-case mapping (İ to i + U+0307, final sigma in context), as CPython. */
    public static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** {@code s.upper()}: the full Unicode upper-case mapping (ß to SS), as CPython. */
    public static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    /** {@code s.isdigit()}: non-empty and every code point a decimal digit or another digit (superscripts, circled digits). */
    public static boolean isDigit(String s) {
        if (s.isEmpty()) return false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int t = Character.getType(cp);
            boolean digit = t == Character.DECIMAL_DIGIT_NUMBER
                    || (t == Character.OTHER_NUMBER
                            && Character.getNumericValue(cp) >= 0
                            && Character.getNumericValue(cp) <= 9
                            && !Character.getName(cp).contains("FRACTION"));
            if (!digit) return false;
            i += Character.charCount(cp);
        }
        return true;
    }

    /**
     * {@code s.title()}: a cased character after an uncased one is title-cased, every other cased
     * character lower-cased (CPython {@code do_title}: "they're" becomes "They'Re").
     */
    public static String title(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean previousCased = false;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            String c = new String(Character.toChars(cp));
            // The full title mapping where it is several code points (U+00DF "ß" to "Ss"), else the simple one.
            if (previousCased) sb.append(c.toLowerCase(Locale.ROOT));
            else sb.append(cp == 0xDF ? "Ss" : new String(Character.toChars(Character.toTitleCase(cp))));
            boolean cased = Character.isUpperCase(cp) || Character.isLowerCase(cp) || Character.isTitleCase(cp);
            previousCased = cased;
        }
        return sb.toString();
    }

    /**
     * Python compares str by code point; Java's {@link String#compareTo} by UTF-16 unit, which
     * disagrees when an astral character (a surrogate pair) meets a character in U+E000..U+FFFF.
     * Units are compared until the first difference, which is then settled on the code points
     * starting there (backing up onto a shared high surrogate). A lone surrogate is its own code
     * point, as in Python.
     */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char ca = a.charAt(i), cb = b.charAt(i);
            if (ca == cb) continue;
            if (!Character.isSurrogate(ca) && !Character.isSurrogate(cb)) return ca - cb;
            if (i > 0 && Character.isHighSurrogate(a.charAt(i - 1))) {
                int x = a.codePointAt(i - 1), y = b.codePointAt(i - 1);
                if (x != y) return Integer.compare(x, y);
                // Both a lone high surrogate: the difference is in the next code point.
            }
            return Integer.compare(a.codePointAt(i), b.codePointAt(i));
        }
        return a.length() - b.length();
    }
}
