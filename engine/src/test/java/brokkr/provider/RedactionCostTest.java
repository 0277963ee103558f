package brokkr.provider;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The redactor takes time linear in the text, with the same answers as the plain search it replaced
 * (which tried every split of every run of backslashes and took 559 s for 400,000 of them). The
 * figures are {@code ./brokkr bench redact}'s; the time-outs here only keep a regression from hanging.
 */
class RedactionCostTest {
    static final List<String> KEYS = List.of(
            "sk-proj/Ab9+cD/eF==",
            "sk-mix/+=\" ab%cd 42",
            "sk-back\\slash\\\\double",
            "\\\\sk-leading-backslashes\\",
            "sk-ключ-🔑-secret-99",
            "sk-%percent%-key-1");

    @Test
    void longRunsOfBackslashesAreRedactedInLinearTime() {
        String run = "\\".repeat(200_000);
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> {
                    for (String key : KEYS) {
                        Secret secret = Secret.of(key);
                        assertSame(run, secret.redact(run), "a run of backslashes alone holds no key: " + key);
                        String prefix = key.substring(0, key.indexOf('-') + 1);
                        String cut = prefix + run + "x";
                        assertSame(cut, secret.redact(cut), "a prefix of the key, then a run: " + key);
                        if (key.codePointAt(0) >= 0x10000 || key.startsWith("\\")) continue;
                        String escaped = run + String.format("u%04x", (int) key.charAt(0)) + key.substring(1);
                        assertEquals(
                                Secret.REDACTED + " tail",
                                secret.redact(escaped + " tail"),
                                "the key escaped after a long run: " + key);
                    }
                },
                "a guard against hanging only (the figure is ./brokkr bench redact's): before, this took hours");
    }

    /** Random texts made of the keys' pieces, backslash runs and escapes: the same answers as the plain search. */
    @Test
    void sameAnswersAsThePlainSearch() {
        SplittableRandom random = new SplittableRandom(30);
        for (String key : KEYS) {
            Secret secret = Secret.of(key);
            List<String> pieces = pieces(key);
            for (int n = 0; n < 4000; n++) {
                StringBuilder text = new StringBuilder();
                int parts = random.nextInt(1, 14);
                for (int k = 0; k < parts; k++) text.append(pieces.get(random.nextInt(pieces.size())));
                String t = text.toString();
                assertEquals(PlainSearch.redact(key, t), secret.redact(t), () -> key + " in " + t);
            }
        }
    }

    private static List<String> pieces(String key) {
        List<String> out = new java.util.ArrayList<>(List.of(
                "\\",
                "\\\\",
                "\\\\\\",
                "u005c",
                "\\u005c",
                "\\\\u005c",
                "%25",
                "%5C",
                "%",
                "+",
                " ",
                "x",
                "\\\"",
                "\\/"));
        int[] cps = key.codePoints().toArray();
        for (int i = 0; i < cps.length; i++) {
            String ch = new String(Character.toChars(cps[i]));
            out.add(ch);
            out.add(key.substring(0, key.offsetByCodePoints(0, i + 1)));
            out.add(key.substring(key.offsetByCodePoints(0, i)));
            StringBuilder u = new StringBuilder();
            for (char c : ch.toCharArray()) u.append(String.format("\\u%04X", (int) c));
            out.add(u.toString());
            out.add("\\" + u);
            out.add(java.net.URLEncoder.encode(ch, StandardCharsets.UTF_8));
        }
        return out;
    }

    /**
     * The search the redactor did before (every split of every run tried in turn), kept as the
     * reference; its escapes are decoded by the redactor's own unchanged helpers.
     */
    static final class PlainSearch {
        static String redact(String key, String text) {
            int[] cps = key.codePoints().toArray();
            char first = key.charAt(0);
            StringBuilder out = null;
            int copied = 0;
            for (int p = 0; p < text.length(); ) {
                char c = text.charAt(p);
                int end = c == first || c == '\\' || c == '%' || c == '+' ? match(cps, text, p, 0) : -1;
                if (end > p) {
                    if (out == null) out = new StringBuilder();
                    out.append(text, copied, p).append(Secret.REDACTED);
                    p = copied = end;
                } else p++;
            }
            return out == null ? text : out.append(text, copied, text.length()).toString();
        }

        private static int match(int[] cps, String t, int q, int i) {
            while (i < cps.length) {
                if (q >= t.length()) return -1;
                int c = cps[i];
                char at = t.charAt(q);
                if (at == '\\') {
                    int run = q;
                    while (run < t.length() && t.charAt(run) == '\\') run++;
                    if (c == '\\') {
                        int e = escaped(t, run, c);
                        int r = e < 0 ? -1 : match(cps, t, e, i + 1);
                        if (r >= 0) return r;
                        for (int len = run - q; len >= 1; len--) {
                            r = match(cps, t, q + len, i + 1);
                            if (r >= 0) return r;
                        }
                        return -1;
                    }
                    int e = escaped(t, run, c);
                    if (e < 0) return -1;
                    q = e;
                } else if (at == '%' && c != '%') {
                    int e = Secret.percentEncoded(t, q, c);
                    if (e < 0) return -1;
                    q = e;
                } else if (at == '%') {
                    int e = Secret.percentEncoded(t, q, c);
                    int r = e < 0 ? -1 : match(cps, t, e, i + 1);
                    return r >= 0 ? r : match(cps, t, q + 1, i + 1);
                } else if (at == '+' && c == ' ') {
                    q++;
                } else if (t.codePointAt(q) == c) {
                    q += Character.charCount(c);
                } else return -1;
                i++;
            }
            return q;
        }

        private static int escaped(String t, int p, int c) {
            if (p >= t.length()) return -1;
            char e = t.charAt(p);
            if (e == 'u') {
                int unit = Secret.hex(t, p + 1, 4);
                if (unit < 0) return -1;
                if (Character.isBmpCodePoint(c)) return unit == c ? p + 5 : -1;
                if (unit != Character.highSurrogate(c)) return -1;
                int q = p + 5, run = q;
                while (run < t.length() && t.charAt(run) == '\\') run++;
                if (run == q || run >= t.length() || t.charAt(run) != 'u') return -1;
                return Secret.hex(t, run + 1, 4) == Character.lowSurrogate(c) ? run + 5 : -1;
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
}
