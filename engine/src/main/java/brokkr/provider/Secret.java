package brokkr.provider;

import java.nio.charset.StandardCharsets;

/**
 * An API key. It is only ever revealed to build the authentication header; {@link #toString} never
 * shows it, and {@link #redact} scrubs it from any text that is about to be recorded, logged, printed
 * or thrown (error bodies of some servers echo the key they rejected, and a model can be made to
 * repeat the {@code Authorization} header it was sent).
 */
public final class Secret {
    public static final String REDACTED = "[REDACTED]";
    private static final Secret NONE = new Secret(null);

    private final String value;
    /** The key's code points, matched one by one in any of their encodings. */
    private final int[] codePoints;

    private Secret(String value) {
        this.value = value;
        this.codePoints = value == null ? new int[0] : value.codePoints().toArray();
    }

    /** A key, or {@link #none()} when {@code value} is null or blank (local servers need none). */
    public static Secret of(String value) {
        return value == null || value.isBlank() ? NONE : new Secret(value.strip());
    }

    public static Secret none() {
        return NONE;
    }

    public boolean isPresent() {
        return value != null;
    }

    /** The key itself: for the request header only. */
    String reveal() {
        return value;
    }

    /**
     * Whether the key can be sent in an HTTP header as it is: printable ASCII only. The JDK's client
     * refuses characters beyond U+00FF with an exception quoting the whole header value (key
     * included), and sends U+0080..U+00FF as {@code ?}, so such a key could never authenticate.
     */
    public boolean isHeaderSafe() {
        return value == null || value.chars().allMatch(c -> c >= 0x20 && c < 0x7F);
    }

    /** Keys shorter than this are not scrubbed from text; see {@link #redact}. */
    public static final int MIN_REDACTED_LENGTH = 8;

    /**
     * {@code text} with every occurrence of the key replaced by {@value #REDACTED}; null stays null,
     * and text without the key is returned as is (the same instance).
     *
     * <p>An occurrence is the key in any mix of the encodings a server or a model may echo it in,
     * character by character: literally; JSON-escaped ({@code \/}, {@code \"}, {@code \\},
     * {@code \n}-style escapes and {@code \}{@code uXXXX} in either case, UTF-16 surrogate pairs for
     * characters beyond the BMP), also inside JSON nested in a JSON string (any run of backslashes
     * before the escape, as in tool-call arguments); and URL-encoded ({@code %XX} of its UTF-8 bytes in
     * either case, {@code +} for a space). So {@code sk-proj/x} is found as {@code sk-proj\/x},
     * {@code sk-proj%2Fx} and {@code sk-proj\u002fx}.
     *
     * <p>Values shorter than {@value #MIN_REDACTED_LENGTH} characters are left alone: they are the
     * placeholders local servers accept ({@code EMPTY}, {@code dummy}, {@code none}), not secrets, and
     * scrubbing such common words would corrupt the records. Real provider keys are far longer.
     */
    public String redact(String text) {
        if (text == null || value == null || value.length() < MIN_REDACTED_LENGTH) return text;
        char first = value.charAt(0);
        if (text.indexOf(first) < 0 && text.indexOf('\\') < 0 && text.indexOf('%') < 0) return text;
        Scan scan = new Scan(text);
        StringBuilder out = null;
        int copied = 0;
        for (int p = 0; p < text.length(); ) {
            char c = text.charAt(p);
            int end = c == first || c == '\\' || c == '%' || c == '+' ? scan.match(p, 0) : -1;
            if (end > p) {
                if (out == null) out = new StringBuilder(text.length());
                out.append(text, copied, p).append(REDACTED);
                p = copied = end;
            } else if (c == '\\') {
                // No later start inside this run of backslashes can match where its first one does not
                // (Scan.inRun): trying each would make a run of n backslashes cost n^2.
                p = scan.runEnd(p);
            } else {
                p++;
            }
        }
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    /**
     * The matching of one text against the key. A run of backslashes is measured once (its end is
     * kept), and a match that reaches a run is decided from the run's end alone, never by trying each
     * split of the run: so a redaction costs time linear in the text (times the key's length).
     */
    private final class Scan {
        private final String t;
        /** The last run of backslashes measured: {@code [runFrom, runTo)}. */
        private int runFrom = -1, runTo = -1;

        Scan(String t) {
            this.t = t;
        }

        /** The end of the run of backslashes that holds {@code q} ({@code q} itself if none is there). */
        int runEnd(int q) {
            if (q >= runFrom && q < runTo) return runTo;
            int r = q;
            while (r < t.length() && t.charAt(r) == '\\') r++;
            runFrom = q;
            runTo = r;
            return r;
        }

        /** The end of an occurrence of the key's code points from {@code i} on, starting at {@code q}; -1 if none. */
        int match(int q, int i) {
            while (i < codePoints.length) {
                if (q >= t.length()) return -1;
                int c = codePoints[i];
                char at = t.charAt(q);
                if (at == '\\') {
                    return inRun(q, runEnd(q), i);
                } else if (at == '%' && c != '%') {
                    int e = percentEncoded(t, q, c);
                    if (e < 0) return -1;
                    q = e;
                } else if (at == '%') {
                    // A '%' of the key is itself or %25.
                    int e = percentEncoded(t, q, c);
                    int r = e < 0 ? -1 : match(e, i + 1);
                    return r >= 0 ? r : match(q + 1, i + 1);
                } else if (at == '+' && c == ' ') {
                    q++;
                } else if (t.codePointAt(q) == c) {
                    q += Character.charCount(c);
                } else {
                    return -1;
                }
                i++;
            }
            return q;
        }

        /** {@link #match} at {@code q}, inside a run of backslashes that ends at {@code end}. */
        private int inRun(int q, int end, int i) {
            Split s = split(end, i);
            return q < s.below() ? s.end() : -1;
        }

        /**
         * Where in a run of backslashes ending at {@code end} the key's code points from {@code i} on
         * can start: every position below {@link Split#below}, all with the same end of the match.
         *
         * <p>A character of the key other than a backslash takes the whole run as its escape prefix
         * (one backslash per level of JSON nesting), so the answer is the same from every position. A
         * backslash of the key is the run followed by {@code u005c}, or the whole run, or (tried last,
         * longest first) a part of the run, leaving the rest to the key's next character: that next
         * character, by induction, matches from every position below some bound with one end, so the
         * longest part that works ends one below that bound. Trying each split, as this did before,
         * took time quadratic in the run (and more for each further backslash of the key).
         */
        private Split split(int end, int i) {
            int c = codePoints[i];
            int e = escaped(end, c);
            int r = e < 0 ? -1 : match(e, i + 1);
            if (r >= 0) return Split.everywhere(r);
            if (c != '\\') return Split.NOWHERE;
            r = match(end, i + 1); // this backslash is the whole run
            if (r >= 0) return Split.everywhere(r);
            Split next = split(end, i + 1); // i + 1 < length: a last backslash always matches the whole run
            return next.below() == Integer.MIN_VALUE
                    ? Split.NOWHERE
                    : new Split(Math.min(next.below(), end) - 1, next.end());
        }

        /** After a run of backslashes at {@code p}: the end of a JSON escape of {@code c}, or -1. */
        private int escaped(int p, int c) {
            if (p >= t.length()) return -1;
            char e = t.charAt(p);
            if (e == 'u') {
                int unit = hex(t, p + 1, 4);
                if (unit < 0) return -1;
                if (Character.isBmpCodePoint(c)) return unit == c ? p + 5 : -1;
                if (unit != Character.highSurrogate(c)) return -1;
                int q = p + 5;
                int run = runEnd(q);
                if (run == q || run >= t.length() || t.charAt(run) != 'u') return -1;
                return hex(t, run + 1, 4) == Character.lowSurrogate(c) ? run + 5 : -1;
            }
            int shortForm = switch (e) {
                case '"', '/', '\'' -> e;
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                default -> -1;
            };
            return shortForm == c ? p + 1 : -1;
        }
    }

    /**
     * Within a run of backslashes: a match starts at every position below {@code below} (none when
     * {@link Integer#MIN_VALUE}, all when {@link Integer#MAX_VALUE}) and ends at {@code end}.
     */
    private record Split(int below, int end) {
        static final Split NOWHERE = new Split(Integer.MIN_VALUE, -1);

        static Split everywhere(int end) {
            return new Split(Integer.MAX_VALUE, end);
        }
    }

    /** At {@code p}: the end of {@code %XX} escapes of the UTF-8 bytes of {@code c}, or -1. */
    static int percentEncoded(String t, int p, int c) {
        byte[] bytes = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            if (p >= t.length() || t.charAt(p) != '%' || hex(t, p + 1, 2) != (b & 0xFF)) return -1;
            p += 3;
        }
        return p;
    }

    /** The value of {@code n} hex digits (either case) at {@code p}, or -1. */
    static int hex(String t, int p, int n) {
        if (p + n > t.length()) return -1;
        int v = 0;
        for (int k = 0; k < n; k++) {
            char h = t.charAt(p + k);
            int d = h >= '0' && h <= '9'
                    ? h - '0'
                    : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (d < 0) return -1;
            v = v * 16 + d;
        }
        return v;
    }

    @Override
    public String toString() {
        return value == null ? "Secret[none]" : "Secret[" + REDACTED + "]";
    }
}
