package brokkr.python;

import java.util.Comparator;

/** Python {@code str} semantics that differ from Java's. */
public final class PyStrings {
    private PyStrings() {}

    /**
     * {@code sorted()} of str keys: {@link #compare} as one shared comparator, so that a dict caching its
     * sorted key order ({@code PyDict.sortedEntries}) recognises the order it was asked for.
     */
    public static final Comparator<String> CODE_POINT_ORDER = PyStrings::compare;

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
