package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The CPython oracle vectors in src/test/resources/python-vectors (written by
 * src/test/python/gen_python_vectors.py): one JSON object a line, values in the tagged encoding
 * that script documents ({"i": decimal}, {"f": float.hex}, {"d": [[k, v], ...]}).
 */
final class Vectors {
    private Vectors() {}

    static List<PyDict> read(String name) {
        String path = "/python-vectors/" + name;
        try (InputStream in = Vectors.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing test resource " + path);
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            List<PyDict> rows = new ArrayList<>();
            for (String line : text.split("\n"))
                if (!line.isEmpty()) rows.add(Json.parse(line).asDict());
            assertTrue(rows.size() > 0, "no vectors in " + name);
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes the tagged encoding into a Value. */
    static Value decode(Value v) {
        return switch (v) {
            case PyDict d
            when d.containsKey("i") -> new PyInt(new BigInteger(d.get("i").asStr()));
            case PyDict d
            when d.containsKey("ix") -> new PyInt(new BigInteger(d.get("ix").asStr(), 16));
            case PyDict d
            when d.containsKey("f") -> new PyFloat(parseHex(d.get("f").asStr()));
            case PyDict d
            when d.containsKey("d") -> {
                PyDict.Builder b = PyDict.builder();
                for (Value pair : d.get("d").asList())
                    b.put(pair.asList().get(0).asStr(), decode(pair.asList().get(1)));
                yield b.build();
            }
            case PyList l -> PyList.of(l.stream().map(Vectors::decode).toList());
            case PyDict d -> throw new IllegalArgumentException("untagged dict in vector: " + d);
            default -> v;
        };
    }

    /** Python's float.hex output (Java parses the same hex-float syntax) or inf/-inf/nan. */
    static double parseHex(String h) {
        return switch (h) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(h);
        };
    }

    /** Exact identity of values: types, float bits, dict order. */
    static boolean same(Value a, Value b) {
        return switch (a) {
            case PyDict d -> b instanceof PyDict e && d.size() == e.size() && sameEntries(d, e);
            case PyList l -> b instanceof PyList m && l.size() == m.size() && sameItems(l, m);
            case PyFloat f ->
                b instanceof PyFloat g && Double.doubleToLongBits(f.value()) == Double.doubleToLongBits(g.value());
            case PyInt i -> b instanceof PyInt j && i.value().equals(j.value());
            case PyStr s -> b instanceof PyStr t && s.value().equals(t.value());
            case PyBool x -> a == b;
            case PyNone n -> a == b;
        };
    }

    private static boolean sameItems(PyList l, PyList m) {
        for (int i = 0; i < l.size(); i++) if (!same(l.get(i), m.get(i))) return false;
        return true;
    }

    private static boolean sameEntries(PyDict d, PyDict e) {
        var it = e.entries().iterator();
        for (Map.Entry<String, Value> x : d.entries()) {
            Map.Entry<String, Value> y = it.next();
            if (!x.getKey().equals(y.getKey()) || !same(x.getValue(), y.getValue())) return false;
        }
        return true;
    }

    /** Collects mismatches; {@link #finish} prints the count checked and fails with the first few diffs. */
    static final class Check {
        private final String what;
        private int checked;
        private final List<String> diffs = new ArrayList<>();

        Check(String what) {
            this.what = what;
        }

        void eq(String expected, String actual, Object input) {
            checked++;
            if (!expected.equals(actual)) {
                diffs.add("input:    " + input + "\n  expected: " + visible(expected) + "\n  actual:   "
                        + visible(actual));
            }
        }

        void ok(boolean good, String description) {
            checked++;
            if (!good) diffs.add(description);
        }

        int checked() {
            return checked;
        }

        void finish() {
            System.out.println(
                    "[python-vectors] " + what + ": " + checked + " checked, " + diffs.size() + " mismatches");
            if (!diffs.isEmpty()) {
                StringBuilder sb = new StringBuilder(
                        what + ": " + diffs.size() + " of " + checked + " vectors differ from CPython:\n");
                diffs.stream()
                        .limit(Integer.getInteger("vectors.diffs", 25))
                        .forEach(d -> sb.append("- ").append(d).append('\n'));
                fail(sb.toString());
            }
        }

        /** Java-escaped, so invisible characters show in the diff. */
        static String visible(String s) {
            if (s == null) return "null";
            StringBuilder sb = new StringBuilder("\"");
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c >= 0x20 && c < 0x7f) sb.append(c);
                else sb.append(String.format("\\u%04x", (int) c));
            }
            return sb.append('"').toString();
        }
    }
}
