package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every vector CPython wrote (gen_python_vectors.py) must be reproduced exactly. */
class PythonVectorsTest {

    @Test
    void floatRepr() {
        Vectors.Check c = new Vectors.Check("float repr / str / json.dumps");
        for (PyDict row : Vectors.read("float_repr.jsonl")) {
            String hex = row.get("x").asStr();
            double x = Vectors.parseHex(hex);
            c.eq(row.get("repr").asStr(), PyFloats.repr(x), hex);
            c.eq(row.get("repr").asStr(), PyRepr.repr(new PyFloat(x)), hex);
            c.eq(row.get("json").asStr(), PyJson.dumps(new PyFloat(x)), hex);
        }
        c.finish();
    }

    @Test
    void round() {
        Vectors.Check c = new Vectors.Check("round");
        for (PyDict row : Vectors.read("round.jsonl")) {
            Value x = Vectors.decode(row.get("x"));
            Value n = row.get("n");
            String expected, actual;
            if (row.containsKey("err")) {
                PyList e = row.get("err").asList();
                expected = e.get(0).asStr() + ": " + e.get(1).asStr();
            } else {
                expected = describe(Vectors.decode(row.get("out")));
            }
            try {
                actual = describe(n.isNone() ? PyRound.round(x) : PyRound.round(x, n));
            } catch (PyException ex) {
                actual = ex.pyType() + ": " + ex.str();
            }
            c.eq(expected, actual, "round(" + describe(x) + ", " + PyRepr.repr(n) + ")");
        }
        c.finish();
    }

    /** Type-tagged exact text: float by repr, int by digits. */
    private static String describe(Value v) {
        return v.typeName() + " " + PyRepr.repr(v);
    }

    @Test
    void format() {
        Vectors.Check c = new Vectors.Check("format");
        for (PyDict row : Vectors.read("format.jsonl")) {
            Value x = Vectors.decode(row.get("x"));
            String spec = row.get("spec").asStr();
            if (spec.startsWith("fstr:")) spec = spec.substring(5); // f"{x:spec}" is format(x, spec)
            String actual;
            try {
                actual = PyFormat.format(x, spec);
            } catch (PyException e) {
                actual = e.pyType() + ": " + e.str();
            } catch (RuntimeException e) {
                actual = e.toString();
            }
            String expected = row.containsKey("err")
                    ? row.get("err").asStr()
                    : row.get("out").asStr();
            c.eq(expected, actual, "format(" + describe(x) + ", '" + spec + "')");
        }
        c.finish();
    }

    @Test
    void reprAndStr() {
        Vectors.Check c = new Vectors.Check("repr / str");
        for (PyDict row : Vectors.read("repr.jsonl")) {
            Value v = Vectors.decode(row.get("v"));
            c.eq(row.get("repr").asStr(), PyRepr.repr(v), Vectors.Check.visible(PyJson.dumps(v)));
            c.eq(row.get("str").asStr(), PyRepr.str(v), Vectors.Check.visible(PyJson.dumps(v)));
        }
        c.finish();
    }

    /**
     * str.isprintable() over all 1,114,112 code points, as CPython 3.11 (Unicode 14.0) recorded it:
     * {@link CPython#V3_11} agrees everywhere; {@link CPython#V3_13} (Unicode 15.1) differs exactly at the
     * code points 15.0 and 15.1 assigned (unassigned, Cn, in 14.0) that are printable. Their number is fixed.
     */
    @Test
    void printableTable() {
        PyDict row = Vectors.read("printable.jsonl").getFirst();
        assertEquals("14.0.0", row.get("unidata_version").asStr());
        boolean[] py = ranges(row.get("printable").asList());
        boolean[] unassigned14 = ranges(row.get("unassigned").asList());
        Vectors.Check c = new Vectors.Check("isprintable over all code points (Unicode "
                + row.get("unidata_version").asStr() + ")");
        int newlyAssignedPrintable = 0;
        for (int cp = 0; cp < 0x110000; cp++) {
            boolean v311 = CPython.V3_11.isPrintable(cp), v313 = CPython.V3_13.isPrintable(cp);
            c.ok(v311 == py[cp], String.format("U+%04X: CPython 3.11 %s, V3_11 %s", cp, py[cp], v311));
            if (v313 != v311) {
                c.ok(
                        unassigned14[cp] && v313,
                        String.format("U+%04X: V3_13 %s differs from 3.11 but was assigned in 14.0", cp, v313));
                newlyAssignedPrintable++;
            }
        }
        c.finish();
        // Unicode 15.0 added 4,489 characters and 15.1 added 627; all are printable except the seven
        // Egyptian hieroglyph format controls U+13439..U+1343F (Cf) that 15.0 added.
        System.out.println("[python-vectors] code points printable in Unicode 15.1 but unassigned in 14.0: "
                + newlyAssignedPrintable);
        assertEquals(EXPECTED_NEW_PRINTABLE, newlyAssignedPrintable, "Unicode 15.0 + 15.1 printable additions");
    }

    static final int EXPECTED_NEW_PRINTABLE = 4489 + 627 - 7;

    private static boolean[] ranges(PyList ranges) {
        boolean[] out = new boolean[0x110000];
        for (Value r : ranges) {
            List<Value> p = r.asList().items();
            int from = ((PyInt) p.get(0)).value().intValueExact(),
                    to = ((PyInt) p.get(1)).value().intValueExact();
            for (int cp = from; cp < to; cp++) out[cp] = true;
        }
        return out;
    }

    @Test
    void dumps() {
        Vectors.Check c = new Vectors.Check("json.dumps");
        for (PyDict row : Vectors.read("dumps.jsonl")) {
            Value v = Vectors.decode(row.get("v"));
            PyDict o = row.get("opts").asDict();
            PyJson.DumpOptions opts = new PyJson.DumpOptions(
                    o.get("sort_keys") == brokkr.value.PyBool.TRUE,
                    o.get("indent").isNone()
                            ? null
                            : ((PyInt) o.get("indent")).value().intValueExact(),
                    o.get("ensure_ascii") == brokkr.value.PyBool.TRUE);
            if (o.containsKey("separators")) {
                PyList seps = o.get("separators").asList();
                opts = opts.withSeparators(seps.get(0).asStr(), seps.get(1).asStr());
            }
            String expected = row.containsKey("err")
                    ? "ValueError: " + row.get("err").asStr()
                    : row.get("out").asStr();
            String actual;
            try {
                actual = PyJson.dumps(v, opts);
                StringBuilder streamed = new StringBuilder();
                PyJson.write(v, opts, streamed);
                c.eq(actual, streamed.toString(), "streaming form");
            } catch (PyException e) {
                actual = e.pyType() + ": " + e.str();
            }
            c.eq(expected, actual, "json.dumps(" + PyJson.dumps(row.get("v")) + " [tagged], " + opts + ")");
        }
        c.finish();
    }

    @Test
    void loads() {
        Vectors.Check c = new Vectors.Check("json.loads");
        for (PyDict row : Vectors.read("loads.jsonl")) {
            String doc = row.get("doc").asStr();
            String input = "json.loads(" + Vectors.Check.visible(doc) + ")";
            try {
                Value v = PyJsonLoads.loads(doc);
                if (row.containsKey("ok")) {
                    Value expected = Vectors.decode(row.get("ok"));
                    c.ok(
                            Vectors.same(expected, v),
                            input + "\n  expected: " + PyRepr.repr(expected) + "\n  actual:   " + PyRepr.repr(v));
                } else {
                    c.ok(false, input + "\n  expected error: " + error(row) + "\n  actual value: " + PyRepr.repr(v));
                }
            } catch (PyException e) {
                String actual = e.pyType() + ": " + e.str();
                if (e instanceof PyJsonLoads.JSONDecodeError jde && row.containsKey("pos")) {
                    c.eq(String.valueOf(((PyInt) row.get("pos")).value()), String.valueOf(jde.pos()), input + " pos");
                }
                c.eq(row.containsKey("ok") ? "(a value)" : error(row), actual, input);
            }
        }
        c.finish();
    }

    private static String error(PyDict row) {
        if (row.containsKey("err")) return "JSONDecodeError: " + row.get("err").asStr();
        return "ValueError: " + row.get("valueError").asStr();
    }

    @Test
    void truthinessEqualityAndOrdering() {
        List<PyDict> rows = Vectors.read("ops.jsonl");
        List<Value> values = rows.getFirst().get("values").asList().stream()
                .map(Vectors::decode)
                .toList();
        Vectors.Check c = new Vectors.Check("bool() / == / < <= > >=");
        for (PyDict row : rows.subList(1, rows.size())) {
            Value a = values.get(((PyInt) row.get("i")).value().intValueExact());
            if (row.containsKey("op")) {
                boolean expected = row.get("out") == brokkr.value.PyBool.TRUE;
                c.eq(String.valueOf(expected), String.valueOf(PyTruth.truthy(a)), "bool(" + PyRepr.repr(a) + ")");
                continue;
            }
            Value b = values.get(((PyInt) row.get("j")).value().intValueExact());
            String pair = PyRepr.repr(a) + " ? " + PyRepr.repr(b);
            c.eq(PyRepr.repr(row.get("eq")), PyRepr.repr(brokkr.value.PyBool.of(PyOps.eq(a, b))), pair + " (==)");
            for (PyOps.Order op : PyOps.Order.values()) {
                String key = op.name().toLowerCase(java.util.Locale.ROOT);
                Value expected = row.get(key);
                String actual;
                try {
                    actual = PyRepr.repr(brokkr.value.PyBool.of(PyOps.compare(a, b, op)));
                } catch (PyException e) {
                    actual = "E";
                    if (op == PyOps.Order.LT && row.containsKey("msg"))
                        c.eq(row.get("msg").asStr(), e.str(), pair + " (TypeError text)");
                }
                c.eq(expected instanceof PyStr s ? s.value() : PyRepr.repr(expected), actual, pair + " (" + key + ")");
            }
        }
        c.finish();
    }

    @Test
    void arithmetic() {
        List<PyDict> rows = Vectors.read("arith.jsonl");
        List<Value> values = rows.getFirst().get("values").asList().stream()
                .map(Vectors::decode)
                .toList();
        Vectors.Check c = new Vectors.Check("+ - * += -= *= unary- max");
        for (PyDict row : rows.subList(1, rows.size())) {
            String op = row.get("op").asStr();
            Value a = values.get(((PyInt) row.get("i")).value().intValueExact());
            Value b = row.containsKey("j")
                    ? values.get(((PyInt) row.get("j")).value().intValueExact())
                    : null;
            String expected =
                    row.containsKey("err") ? row.get("err").asStr() : describe(Vectors.decode(row.get("out")));
            String actual;
            try {
                actual = describe(
                        switch (op) {
                            case "neg" -> PyArith.neg(a);
                            case "add" -> PyArith.add(a, b);
                            case "sub" -> PyArith.sub(a, b);
                            case "mul" -> PyArith.mul(a, b);
                            case "iadd" -> PyArith.iadd(a, b);
                            case "isub" -> PyArith.isub(a, b);
                            case "imul" -> PyArith.imul(a, b);
                            case "max" -> PyBuiltins.max(a, b);
                            default -> throw new IllegalArgumentException(op);
                        });
            } catch (PyException e) {
                actual = e.pyType() + ": " + e.str();
            }
            c.eq(expected, actual, op + "(" + describe(a) + (b == null ? "" : ", " + describe(b)) + ")");
        }
        c.finish();
    }
}
