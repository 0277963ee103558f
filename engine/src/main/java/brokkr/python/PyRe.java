package brokkr.python;

import java.util.regex.Pattern;

/**
 * Python {@code re} patterns on str, as {@link Pattern}s with the flags that give Java's engine
 * Python's meaning for the constructs BFCL's checkers use: {@code \d} and {@code \w} are Unicode
 * (category Nd / word characters), {@code $} (without MULTILINE) matches at the end or before one
 * final {@code \n} only, {@code .} excludes only {@code \n}, and {@code \s} is exactly the characters
 * {@code str.isspace()} accepts (Java's Unicode {@code \s} lacks U+001C..U+001F). Both engines
 * backtrack leftmost-first with the same lazy/greedy order, so {@code re.match} is
 * {@link java.util.regex.Matcher#lookingAt}, {@code re.search} is {@code find()}.
 */
public final class PyRe {
    private PyRe() {}

    private static final String SPACE =
            "[\\t\\n\\x0B\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]";

    /** {@code re.compile(pattern)}; {@code \s} must not appear inside a character class. */
    public static Pattern compile(String pattern) {
        return compile(pattern, false);
    }

    /** {@code re.compile(pattern, re.DOTALL)} when {@code dotall}. */
    public static Pattern compile(String pattern, boolean dotall) {
        String p = pattern.replace("\\s", SPACE);
        int flags = Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS | (dotall ? Pattern.DOTALL : 0);
        return Pattern.compile(p, flags);
    }
}
