package brokkr.python;

import java.util.ArrayList;
import java.util.List;

/** CPython's {@code str.splitlines()} and {@code str.split()} (no arguments), which Java's split differs from. */
public final class PyStrMethods {
    private PyStrMethods() {}

    /** Objects/unicodeobject.c: the line boundaries of {@code str.splitlines} ({@code \r\n} counts once). */
    static boolean isLineBreak(char c) {
        return switch (c) {
            case '\n', '\r', '\u000b', '\u000c', '\u001c', '\u001d', '\u001e', '\u0085', '\u2028', '\u2029' -> true;
            default -> false;
        };
    }

    /** {@code s.splitlines()}: no trailing empty line, no line breaks kept. */
    public static List<String> splitlines(String s) {
        List<String> out = new ArrayList<>();
        int n = s.length(), start = 0, i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (isLineBreak(c)) {
                out.add(s.substring(start, i));
                if (c == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') i++;
                start = i + 1;
            }
            i++;
        }
        if (start < n) out.add(s.substring(start));
        return out;
    }

    /** {@code Py_UNICODE_ISSPACE}: what {@code str.split()} splits on. */
    public static boolean isSpace(int c) {
        return switch (c) {
            case '\t',
                    '\n',
                    '\u000b',
                    '\u000c',
                    '\r',
                    '\u001c',
                    '\u001d',
                    '\u001e',
                    '\u001f',
                    ' ',
                    '\u0085',
                    '\u00a0',
                    '\u1680',
                    '\u2028',
                    '\u2029',
                    '\u202f',
                    '\u205f',
                    '\u3000' -> true;
            default -> c >= '\u2000' && c <= '\u200a';
        };
    }

    /** {@code s.split()}: runs of whitespace separate, none at the ends. */
    public static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int n = s.length(), i = 0;
        while (i < n) {
            while (i < n && isSpace(s.charAt(i))) i++;
            if (i >= n) break;
            int start = i;
            while (i < n && !isSpace(s.charAt(i))) i++;
            out.add(s.substring(start, i));
        }
        return out;
    }
}
