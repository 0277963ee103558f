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

/** Python's {@code repr()} and {@code str()} of built-in values. */
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
        switch (v) {
            case PyStr s -> reprStr(s.value(), sb);
            case PyInt i -> sb.append(i.value());
            case PyFloat f -> sb.append(PyFloats.repr(f.value()));
            case PyBool b -> sb.append(b.value() ? "True" : "False");
            case PyNone n -> sb.append("None");
            case PyList l -> {
                sb.append('[');
                boolean first = true;
                for (Value item : l) {
                    if (!first) sb.append(", ");
                    first = false;
                    repr(item, sb);
                }
                sb.append(']');
            }
            case PyDict d -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Value> e : d.entries()) {
                    if (!first) sb.append(", ");
                    first = false;
                    reprStr(e.getKey(), sb);
                    sb.append(": ");
                    repr(e.getValue(), sb);
                }
                sb.append('}');
            }
        }
    }

    public static String reprStr(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        reprStr(s, sb);
        return sb.toString();
    }

    /** {@code unicode_repr}: single quotes unless the text has ' and no ". */
    public static void reprStr(String s, StringBuilder sb) {
        char quote = (s.indexOf('\'') >= 0 && s.indexOf('"') < 0) ? '"' : '\'';
        sb.append(quote);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == quote || cp == '\\') sb.append('\\').appendCodePoint(cp);
            else if (cp == '\t') sb.append("\\t");
            else if (cp == '\n') sb.append("\\n");
            else if (cp == '\r') sb.append("\\r");
            else if (cp < 0x20 || cp == 0x7f) sb.append(String.format("\\x%02x", cp));
            else if (cp < 0x7f) sb.appendCodePoint(cp);
            else if (isPrintable(cp)) sb.appendCodePoint(cp);
            else if (cp <= 0xff) sb.append(String.format("\\x%02x", cp));
            else if (cp <= 0xffff) sb.append(String.format("\\u%04x", cp));
            else sb.append(String.format("\\U%08x", cp));
        }
        sb.append(quote);
    }

    /** Approximates CPython's {@code Py_UNICODE_ISPRINTABLE}: not in categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (except space). */
    static boolean isPrintable(int cp) {
        if (cp == ' ') return true;
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                 Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }
}
