package brokkr.render;

import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;

/**
 * Text that is a JSON object or array (a tool's result, a world value) shown as a person reads it:
 * indented, and in HTML folded under a one-line summary when it is long.
 */
public final class JsonText {
    private JsonText() {}

    /** Lines up to which folded JSON starts open. */
    public static final int OPEN_LINES = 12;

    /** The text indented (two spaces, non-ASCII kept) when it is a JSON object or array; null otherwise. */
    public static String pretty(String text) {
        Value v = parse(text);
        return v == null
                ? null
                : PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false));
    }

    /**
     * HTML for text that may be JSON: a {@code <details class="brokkr-json">} whose summary says what it
     * holds (open when short), else the escaped text in a wrapping {@code <pre>}.
     */
    public static String html(String text) {
        Value v = parse(text);
        if (v == null)
            return "<pre class=\"brokkr-text\" style=\"white-space:pre-wrap;margin:0\">" + Html.esc(text) + "</pre>";
        String pretty = PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false));
        long lines = pretty.lines().count();
        return "<details class=\"brokkr-json\"" + (lines <= OPEN_LINES ? " open" : "") + "><summary>"
                + Html.esc(shape(v)) + "</summary>" + "<pre style=\"white-space:pre-wrap;margin:0\">" + Html.esc(pretty)
                + "</pre></details>";
    }

    /** {@code "JSON object: order_id, status, items"} or {@code "JSON array of 3"}. */
    public static String shape(Value v) {
        if (v instanceof PyDict d) {
            String keys = String.join(", ", d.keys());
            return "JSON object: " + (keys.length() > 80 ? keys.substring(0, 77) + "..." : keys);
        }
        return "JSON array of " + ((PyList) v).size();
    }

    private static Value parse(String text) {
        if (text == null) return null;
        String t = text.strip();
        if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return null;
        try {
            Value v = Json.parse(t);
            return v instanceof PyDict || v instanceof PyList ? v : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
