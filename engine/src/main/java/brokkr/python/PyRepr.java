package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.Map;

/**
 * Python's {@code repr()} and {@code str()} of built-in values. They differ between releases only in
 * which characters a str's repr escapes ({@link CPython#isPrintable}); the forms without a
 * {@link CPython} are CPython 3.13's (tau2's, this model's first user).
 */
public final class PyRepr {
    private PyRepr() {}

    public static String repr(Value v) {
        StringBuilder sb = new StringBuilder();
        repr(v, sb);
        return sb.toString();
    }

    /** {@code str(v)}: a str is itself, everything else is its repr (containers repr their items). */
    public static String str(Value v) {
        return v instanceof PyStr s ? s.value() : repr(v);
    }

    public static void repr(Value v, StringBuilder sb) {
        repr(v, sb, CPython.V3_13);
    }

    /** {@code repr(v)} under {@code python}. */
    public static void repr(Value v, StringBuilder sb, CPython python) {
        switch (v) {
            case PyStr s -> reprStr(s.value(), sb, python);
            case PyInt i -> sb.append(PyInts.toDecimal(i.value()));
            case PyFloat f -> PyFloats.appendRepr(f.value(), sb);
            case PyBool b -> sb.append(b.value() ? "True" : "False");
            case PyNone n -> sb.append("None");
            case PyList l -> {
                sb.append('[');
                boolean first = true;
                for (Value item : l) {
                    if (!first) sb.append(", ");
                    first = false;
                    repr(item, sb, python);
                }
                sb.append(']');
            }
            case PyDict d -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Value> e : d.entries()) {
                    if (!first) sb.append(", ");
                    first = false;
                    reprStr(e.getKey(), sb, python);
                    sb.append(": ");
                    repr(e.getValue(), sb, python);
                }
                sb.append('}');
            }
        }
    }

    /** {@code repr(s)} under CPython 3.13 (tau2's profile), as {@link #reprStr(String, StringBuilder)}. */
    public static String reprStr(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        reprStr(s, sb);
        return sb.toString();
    }

    /**
     * {@code repr(s)} under CPython 3.13: the profile of this class's {@link Value} renderings (tau2's);
     * code of another release passes its own ({@link #reprStr(String, StringBuilder, CPython)}).
     */
    public static void reprStr(String s, StringBuilder sb) {
        reprStr(s, sb, CPython.V3_13);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * {@code unicode_repr} (Objects/unicodeobject.c): single quotes unless the text has ' and no ";
     * non-printable characters escaped, printability per {@code python}'s Unicode database.
     */
    public static void reprStr(String s, StringBuilder sb, CPython python) {
        char quote = (s.indexOf('\'') >= 0 && s.indexOf('"') < 0) ? '"' : '\'';
        sb.append(quote);
        int n = s.length();
        for (int i = 0; i < n; ) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                // Printable ASCII: only the quote in use and the backslash are escaped.
                if (c == quote || c == '\\') sb.append('\\');
                sb.append(c);
                i++;
                continue;
            }
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\t') sb.append("\\t");
            else if (cp == '\n') sb.append("\\n");
            else if (cp == '\r') sb.append("\\r");
            else if (cp < 0x20 || cp == 0x7f) hexEscape(sb, 'x', cp, 2);
            else if (python.isPrintable(cp)) sb.appendCodePoint(cp);
            else if (cp <= 0xff) hexEscape(sb, 'x', cp, 2);
            else if (cp <= 0xffff) hexEscape(sb, 'u', cp, 4);
            else hexEscape(sb, 'U', cp, 8);
        }
        sb.append(quote);
    }

    private static void hexEscape(StringBuilder sb, char kind, int cp, int digits) {
        sb.append('\\').append(kind);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) sb.append(HEX[(cp >> shift) & 15]);
    }
}
