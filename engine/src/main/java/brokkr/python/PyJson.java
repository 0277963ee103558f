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
import java.util.Arrays;
import java.util.Map;

/**
 * CPython's {@code json.dumps}, character for character (Lib/json/encoder.py and Modules/_json.c,
 * which agree on every output).
 *
 * <p>{@code default=str} never matters here: it is only called for objects the encoder cannot
 * serialise, and every {@link Value} is serialisable (dict keys are always str).
 */
public final class PyJson {
    private PyJson() {}

    /**
     * Options of {@code json.dumps}. {@code indent} null means one line; an int n indents by n spaces
     * per level (0 and negative numbers still break lines, with no spaces, as {@code ' ' * n} is
     * empty). Separators null means Python's default: {@code ", "} between items without indent,
     * {@code ","} with one, and {@code ": "} after keys. {@code allowNan} false makes NaN and the
     * infinities a ValueError, as {@code allow_nan=False} does.
     */
    public record DumpOptions(
            boolean sortKeys,
            Integer indent,
            boolean ensureAscii,
            String itemSeparator,
            String keySeparator,
            boolean allowNan) {
        public static final DumpOptions DEFAULT = new DumpOptions(false, null, true);
        public static final DumpOptions SORTED = new DumpOptions(true, null, true);
        /** {@code separators=(',', ':')}: the compact form. */
        public static final DumpOptions COMPACT = DEFAULT.withSeparators(",", ":");

        public DumpOptions(boolean sortKeys, Integer indent, boolean ensureAscii) {
            this(sortKeys, indent, ensureAscii, null, null, true);
        }

        public DumpOptions withIndent(Integer n) {
            return new DumpOptions(sortKeys, n, ensureAscii, itemSeparator, keySeparator, allowNan);
        }

        public DumpOptions withSortKeys(boolean s) {
            return new DumpOptions(s, indent, ensureAscii, itemSeparator, keySeparator, allowNan);
        }

        public DumpOptions withEnsureAscii(boolean a) {
            return new DumpOptions(sortKeys, indent, a, itemSeparator, keySeparator, allowNan);
        }
        /** {@code separators=(item, key)}. */
        public DumpOptions withSeparators(String item, String key) {
            return new DumpOptions(sortKeys, indent, ensureAscii, item, key, allowNan);
        }

        public DumpOptions withAllowNan(boolean a) {
            return new DumpOptions(sortKeys, indent, ensureAscii, itemSeparator, keySeparator, a);
        }

        /** Lib/json/encoder.py JSONEncoder.__init__: {@code if indent is not None: self.item_separator = ','}. */
        String effectiveItemSeparator() {
            return itemSeparator != null ? itemSeparator : indent == null ? ", " : ",";
        }

        String effectiveKeySeparator() {
            return keySeparator != null ? keySeparator : ": ";
        }
    }

    /** {@code json.dumps(v)} with Python's defaults. */
    public static String dumps(Value v) {
        return dumps(v, DumpOptions.DEFAULT);
    }

    public static String dumps(Value v, DumpOptions o) {
        StringBuilder sb = new StringBuilder();
        try {
            new Writer(o, sb).value(v, 0);
        } catch (IOException e) {
            throw new AssertionError(e); // StringBuilder does not throw
        }
        return sb.toString();
    }

    /** Streams {@code json.dumps(v, ...)} to {@code out}. */
    public static void write(Value v, DumpOptions o, Appendable out) {
        try {
            new Writer(o, out).value(v, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Writer {
        private final DumpOptions o;
        private final Appendable out;
        private final String itemSep, keySep;
        private final String indentUnit;
        /** {@link #out} when it is a StringBuilder: numbers are then appended without a String each. */
        private final StringBuilder sb;

        Writer(DumpOptions o, Appendable out) {
            this.o = o;
            this.out = out;
            this.sb = out instanceof StringBuilder b ? b : null;
            this.itemSep = o.effectiveItemSeparator();
            this.keySep = o.effectiveKeySeparator();
            this.indentUnit = o.indent() == null ? null : " ".repeat(Math.max(0, o.indent()));
        }

        void value(Value v, int level) throws IOException {
            switch (v) {
                case PyStr s -> writeString(s.value(), o.ensureAscii(), out);
                case PyInt i -> {
                    if (sb != null && i.fitsLong()) sb.append(i.value().longValue());
                    else out.append(PyInts.toDecimal(i.value()));
                }
                case PyFloat f -> floatJson(f.value());
                case PyBool b -> out.append(b.value() ? "true" : "false");
                case PyNone n -> out.append("null");
                case PyList l -> {
                    if (l.isEmpty()) {
                        out.append("[]");
                        return;
                    }
                    out.append('[');
                    boolean first = true;
                    for (Value item : l) {
                        if (!first) out.append(itemSep);
                        first = false;
                        newline(level + 1);
                        value(item, level + 1);
                    }
                    newline(level);
                    out.append(']');
                }
                case PyDict d -> {
                    if (d.isEmpty()) {
                        out.append("{}");
                        return;
                    }
                    out.append('{');
                    boolean first = true;
                    for (Map.Entry<String, Value> e : entries(d, o.sortKeys())) {
                        if (!first) out.append(itemSep);
                        first = false;
                        newline(level + 1);
                        writeString(e.getKey(), o.ensureAscii(), out);
                        out.append(keySep);
                        value(e.getValue(), level + 1);
                    }
                    newline(level);
                    out.append('}');
                }
            }
        }

        private void floatJson(double x) throws IOException {
            if (!o.allowNan() && (Double.isNaN(x) || Double.isInfinite(x))) {
                // CPython 3.13 wording (3.11 stops before the colon).
                throw PyException.valueError("Out of range float values are not JSON compliant: " + PyFloats.repr(x));
            }
            if (sb != null && !Double.isNaN(x) && !Double.isInfinite(x)) PyFloats.appendRepr(x, sb);
            else out.append(PyJson.floatJson(x));
        }

        private void newline(int level) throws IOException {
            if (indentUnit == null) return;
            out.append('\n');
            if (indentUnit.isEmpty()) return;
            for (int i = 0; i < level; i++) out.append(indentUnit);
        }
    }

    /** Entries in insertion order, or sorted as Python sorts str keys (by code point). */
    public static Iterable<Map.Entry<String, Value>> entries(PyDict d, boolean sortKeys) {
        if (!sortKeys || d.size() < 2) return d.entries();
        return Arrays.asList(d.sortedEntries(PyStrings.CODE_POINT_ORDER));
    }

    /** {@code float.__repr__}, except JSON's spellings of the non-finite values. */
    public static String floatJson(double x) {
        if (Double.isNaN(x)) return "NaN";
        if (Double.isInfinite(x)) return x > 0 ? "Infinity" : "-Infinity";
        return PyFloats.repr(x);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * {@code json.encoder.py_encode_basestring_ascii} / {@code py_encode_basestring} (C:
     * ascii_escape_unicode / escape_unicode). With ensure_ascii everything outside ' '..'~' is
     * escaped (0x7f included) as lowercase {@code \\uXXXX}, astral characters as their two UTF-16
     * units, which is also how lone surrogates come out; without it only '"', '\\' and C0 controls.
     * Runs of plain characters are appended in one call.
     */
    public static void writeString(String s, boolean ensureAscii, Appendable out) throws IOException {
        out.append('"');
        int n = s.length();
        int run = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x7f || !ensureAscii)) continue;
            if (run < i) out.append(s, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default ->
                    out.append('\\')
                            .append('u')
                            .append(HEX[(c >> 12) & 15])
                            .append(HEX[(c >> 8) & 15])
                            .append(HEX[(c >> 4) & 15])
                            .append(HEX[c & 15]);
            }
        }
        if (run < n) out.append(s, run, n);
        out.append('"');
    }
}
