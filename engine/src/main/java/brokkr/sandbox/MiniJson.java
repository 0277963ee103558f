package brokkr.sandbox;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the sandbox JVM, which has the JDK only on purpose (nothing of the harness's libraries is
 * reachable from a snippet): the wire between harness and sandbox, and {@code parse} for snippets.
 * Objects read as insertion-ordered maps, arrays as lists, integers as Integer (Long, BigInteger when
 * larger), other numbers as Double. Written Java integers stay integers and doubles always carry a
 * decimal point or exponent, so the harness reads them back as Python int and float.
 *
 * <p>Parsing nests at most {@value #MAX_DEPTH} arrays and objects (deeper text is an
 * IllegalArgumentException, never a StackOverflowError): the harness parses what a sandbox sends.
 */
public final class MiniJson {
    private MiniJson() {}

    public static final int MAX_DEPTH = 512;

    public static Object parse(String text) {
        MiniJson.Reader r = new MiniJson.Reader(text);
        r.ws();
        Object v = r.value();
        r.ws();
        if (r.i != text.length()) throw r.error("trailing text");
        return v;
    }

    public static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v);
        return b.toString();
    }

    static void write(StringBuilder b, Object v) {
        switch (v) {
            case null -> b.append("null");
            case String s -> quote(b, s);
            case Character c -> quote(b, c.toString());
            case Boolean x -> b.append(x);
            case Integer x -> b.append(x);
            case Long x -> b.append(x);
            case Short x -> b.append(x);
            case Byte x -> b.append(x);
            case BigInteger x -> b.append(x);
            case Double d -> number(b, d);
            case Float f -> number(b, f.doubleValue());
            case Number n -> number(b, n.doubleValue());
            case Map<?, ?> m -> {
                b.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!first) b.append(", ");
                    first = false;
                    quote(b, String.valueOf(e.getKey()));
                    b.append(": ");
                    write(b, e.getValue());
                }
                b.append('}');
            }
            case Collection<?> c -> {
                b.append('[');
                boolean first = true;
                for (Object o : c) {
                    if (!first) b.append(", ");
                    first = false;
                    write(b, o);
                }
                b.append(']');
            }
            case Object[] a -> write(b, List.of(a).stream().toList());
            case int[] a -> write(b, java.util.Arrays.stream(a).boxed().toList());
            case long[] a -> write(b, java.util.Arrays.stream(a).boxed().toList());
            case double[] a -> write(b, java.util.Arrays.stream(a).boxed().toList());
            default -> quote(b, v.toString());
        }
    }

    private static void number(StringBuilder b, double d) {
        if (Double.isNaN(d)) b.append("NaN");
        else if (Double.isInfinite(d)) b.append(d > 0 ? "Infinity" : "-Infinity");
        else b.append(Double.toString(d)); // always "1.0" or "1.0E10": read back as a float
    }

    static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        b.append('"');
    }

    private static final class Reader {
        final String s;
        int i;
        int depth;

        Reader(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("not JSON: " + what + " at offset " + i);
        }

        void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        Object value() {
            if (i >= s.length()) throw error("unexpected end");
            char c = s.charAt(i);
            if ((c == '{' || c == '[') && depth == MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
            switch (c) {
                case '{':
                    depth++;
                    Object m = object();
                    depth--;
                    return m;
                case '[':
                    depth++;
                    Object l = array();
                    depth--;
                    return l;
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                case 'N':
                    return literal("NaN", Double.NaN);
                case 'I':
                    return literal("Infinity", Double.POSITIVE_INFINITY);
                default:
                    return number();
            }
        }

        Object literal(String word, Object v) {
            if (!s.startsWith(word, i)) throw error("unexpected character '" + s.charAt(i) + "'");
            i += word.length();
            return v;
        }

        Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == '}') {
                i++;
                return m;
            }
            while (true) {
                ws();
                if (i >= s.length() || s.charAt(i) != '"') throw error("expected a key");
                String k = string();
                ws();
                if (i >= s.length() || s.charAt(i) != ':') throw error("expected ':'");
                i++;
                ws();
                m.put(k, value());
                ws();
                if (i >= s.length()) throw error("unexpected end");
                char c = s.charAt(i++);
                if (c == '}') return m;
                if (c != ',') throw error("expected ',' or '}'");
            }
        }

        List<Object> array() {
            List<Object> l = new ArrayList<>();
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == ']') {
                i++;
                return l;
            }
            while (true) {
                ws();
                l.add(value());
                ws();
                if (i >= s.length()) throw error("unexpected end");
                char c = s.charAt(i++);
                if (c == ']') return l;
                if (c != ',') throw error("expected ',' or ']'");
            }
        }

        String string() {
            StringBuilder b = new StringBuilder();
            i++;
            while (true) {
                if (i >= s.length()) throw error("unterminated string");
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (i >= s.length()) throw error("unterminated escape");
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (i + 4 > s.length()) throw error("bad \\u escape");
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            }
        }

        Object number() {
            int start = i;
            if (i < s.length() && s.charAt(i) == '-') {
                i++;
                if (s.startsWith("Infinity", i)) {
                    i += 8;
                    return Double.NEGATIVE_INFINITY;
                }
            }
            boolean fraction = false;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c >= '0' && c <= '9') i++;
                else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                    fraction = true;
                    i++;
                } else break;
            }
            String t = s.substring(start, i);
            if (t.isEmpty() || t.equals("-")) throw error("unexpected character");
            try {
                if (fraction) return Double.parseDouble(t);
                BigInteger n = new BigInteger(t);
                if (n.bitLength() < 32) return n.intValue();
                if (n.bitLength() < 64) return n.longValue();
                return n;
            } catch (NumberFormatException e) {
                throw error("bad number '" + t + "'");
            }
        }
    }
}
