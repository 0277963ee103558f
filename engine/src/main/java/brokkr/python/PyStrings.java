package brokkr.python;

/** Python {@code str} semantics that differ from Java's. */
public final class PyStrings {
    private PyStrings() {}

    /** Python compares str by code point; Java's {@link String#compareTo} by UTF-16 unit. */
    public static int compare(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i), cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
