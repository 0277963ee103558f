package brokkr.render;

/**
 * Text made safe inside HTML elements and attribute values: every text from a store or a model is escaped.
 * Besides markup, characters that would act on the page unseen are shown as escapes ({@code \u0000},
 * {@code \u202E}), never raw: C0 controls but tab, newline and carriage return, DEL, and the bidirectional
 * controls (LRM/RLM/ALM, the embeddings, overrides and isolates), with which a text can make itself read
 * backwards or hide what follows.
 */
public final class Html {
    private Html() {}

    public static String esc(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (shownEscaped(c)) sb.append(String.format("\\u%04X", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.toString();
    }

    /** A character shown as its escape: an invisible control (see the class comment). */
    static boolean shownEscaped(char c) {
        return (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                || c == 0x7F
                || c == '\u061C'
                || c == '\u200E'
                || c == '\u200F'
                || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
