package brokkr.python;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Map;

/** CPython's {@code json.dumps}, character for character. */
public final class PyJson {
    private PyJson() {}

    /**
     * Options of {@code json.dumps}: {@code indent} null means compact-ish (Python's default separators
     * {@code ", "} and {@code ": "}); with an indent the item separator is {@code ","}.
     */
    public record DumpOptions(boolean sortKeys, Integer indent, boolean ensureAscii) {
        public static final DumpOptions DEFAULT = new DumpOptions(false, null, true);
        public static final DumpOptions SORTED = new DumpOptions(true, null, true);
        public DumpOptions withIndent(Integer n) { return new DumpOptions(sortKeys, n, ensureAscii); }
        public DumpOptions withSortKeys(boolean s) { return new DumpOptions(s, indent, ensureAscii); }
        public DumpOptions withEnsureAscii(boolean a) { return new DumpOptions(sortKeys, indent, a); }
    }

    /** {@code json.dumps(v)} with Python's defaults. */
    public static String dumps(Value v) { return dumps(v, DumpOptions.DEFAULT); }

    public static String dumps(Value v, DumpOptions o) {
        StringBuilder sb = new StringBuilder();
        write(v, o, sb, 0);
        return sb.toString();
    }

    public static void write(Value v, DumpOptions o, Appendable out) {
        try {
            writeTo(v, o, out, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Value v, DumpOptions o, StringBuilder sb, int level) {
        try {
            writeTo(v, o, sb, level);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void writeTo(Value v, DumpOptions o, Appendable out, int level) throws IOException {
        switch (v) {
            case PyStr s -> writeString(s.value(), o.ensureAscii(), out);
            case PyInt i -> out.append(i.value().toString());
            case PyFloat f -> out.append(floatJson(f.value()));
            case PyBool b -> out.append(b.value() ? "true" : "false");
            case PyNone n -> out.append("null");
            case PyList l -> {
                if (l.isEmpty()) { out.append("[]"); return; }
                out.append('[');
                boolean first = true;
                for (Value item : l) {
                    if (!first) out.append(o.indent() == null ? ", " : ",");
                    first = false;
                    newline(o, out, level + 1);
                    writeTo(item, o, out, level + 1);
                }
                newline(o, out, level);
                out.append(']');
            }
            case PyDict d -> {
                if (d.isEmpty()) { out.append("{}"); return; }
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, Value> e : entries(d, o.sortKeys())) {
                    if (!first) out.append(o.indent() == null ? ", " : ",");
                    first = false;
                    newline(o, out, level + 1);
                    writeString(e.getKey(), o.ensureAscii(), out);
                    out.append(": ");
                    writeTo(e.getValue(), o, out, level + 1);
                }
                newline(o, out, level);
                out.append('}');
            }
        }
    }

    private static void newline(DumpOptions o, Appendable out, int level) throws IOException {
        if (o.indent() == null) return;
        out.append('\n');
        for (int i = 0; i < level * o.indent(); i++) out.append(' ');
    }

    /** Entries in insertion order, or sorted as Python sorts str keys (by code point). */
    public static Iterable<Map.Entry<String, Value>> entries(PyDict d, boolean sortKeys) {
        if (!sortKeys) return d.entries();
        ArrayList<Map.Entry<String, Value>> list = new ArrayList<>(d.entries());
        list.sort((a, b) -> PyStrings.compare(a.getKey(), b.getKey()));
        return list;
    }

    /** {@code float.__repr__}, except JSON's spellings of the non-finite values. */
    public static String floatJson(double x) {
        if (Double.isNaN(x)) return "NaN";
        if (Double.isInfinite(x)) return x > 0 ? "Infinity" : "-Infinity";
        return PyFloats.repr(x);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** {@code json.encoder.py_encode_basestring_ascii} / {@code py_encode_basestring}. */
    public static void writeString(String s, boolean ensureAscii, Appendable out) throws IOException {
        out.append('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || (ensureAscii && c > 0x7e)) {
                        out.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15])
                                .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
