package brokkr.render.report;

import brokkr.render.Html;
import brokkr.render.JsonText;
import java.util.HashMap;
import java.util.Map;

/**
 * The long texts of one attempt on the page. A text up to {@link #SHOWN} characters shows whole; a longer one
 * shows its start and the rest under a {@code <details>} (whole, one click away, the page never cuts a text
 * for good); and a long text the attempt repeats (a tool's output echoed back in the transcript) is shown whole
 * once, later occurrences only their start and a link to it. A 2M-character output is then on the page once,
 * not once per place it recurs.
 */
final class LongTexts {
    /** Characters of a text shown before the rest is folded. */
    static final int SHOWN = 20_000;

    /** Characters shown of a long text already shown whole in the same attempt. */
    static final int SHOWN_AGAIN = 1_000;

    private final String anchorPrefix;
    private final Map<String, String> shownWhole = new HashMap<>();

    /** @param anchorPrefix a page-unique prefix for the anchors of this attempt's long texts */
    LongTexts(String anchorPrefix) {
        this.anchorPrefix = anchorPrefix;
    }

    /** {@code text} escaped in a {@code <pre>} with {@code attributes} (e.g. {@code class="error"}), cut when long. */
    void pre(StringBuilder sb, String attributes, String text) {
        String t = text == null ? "" : text;
        String open = "<pre" + (attributes.isEmpty() ? "" : " " + attributes);
        if (t.length() <= SHOWN) {
            sb.append(open).append('>').append(Html.esc(t)).append("</pre>");
            return;
        }
        String anchor = shownWhole.get(t);
        if (anchor != null) {
            sb.append(open)
                    .append('>')
                    .append(Html.esc(head(t, SHOWN_AGAIN)))
                    .append("…</pre><p class=\"brokkr-note\">the same ")
                    .append(String.format("%,d", t.length()))
                    .append(" characters as shown whole <a href=\"#")
                    .append(anchor)
                    .append("\">above</a></p>");
            return;
        }
        anchor = anchorPrefix + (shownWhole.size() + 1);
        shownWhole.put(t, anchor);
        String head = head(t, SHOWN);
        sb.append(open)
                .append(" id=\"")
                .append(anchor)
                .append("\">")
                .append(Html.esc(head))
                .append("</pre><details class=\"brokkr-long\"><summary>")
                .append(String.format("%,d", t.length() - head.length()))
                .append(" more characters (")
                .append(String.format("%,d", t.length()))
                .append(" in all): show the whole text</summary>")
                .append(open)
                .append('>')
                .append(Html.esc(t.substring(head.length())))
                .append("</pre></details>");
    }

    /** A tool's result or a call's arguments: JSON indented and folded ({@link JsonText#html}), cut when long. */
    void json(StringBuilder sb, String text) {
        String t = text == null ? "" : text;
        if (t.length() <= SHOWN) {
            sb.append(JsonText.html(t));
            return;
        }
        String pretty = JsonText.pretty(t);
        pre(sb, "class=\"brokkr-text\"", pretty != null ? pretty : t);
    }

    /** The first {@code n} characters, never ending inside a surrogate pair. */
    static String head(String t, int n) {
        int end = Math.min(n, t.length());
        if (end > 0 && end < t.length() && Character.isHighSurrogate(t.charAt(end - 1))) end--;
        return t.substring(0, end);
    }
}
