package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import org.junit.jupiter.api.Test;

/** Built-in operations on JSON-like values: results and exception texts as CPython gave them (op, x, y, ok|err, result). */
class PyBuiltinsTest {
    static final String[][] CASES = {
        {"lower", "{}", "\"5\"", "err", "\"AttributeError: 'dict' object has no attribute 'lower'\""},
        {"in", "{\"b\": -0.0}", "0.1", "err", "\"TypeError: unhashable type: 'dict'\""},
        {"in", "[]", "-3", "err", "\"TypeError: unhashable type: 'list'\""},
        {
            "sorted",
            "[[1.5], \"abc\", [123456789.125]]",
            "[[null, 1e-05, null], [123456789.125]]",
            "err",
            "\"TypeError: '<' not supported between instances of 'str' and 'list'\""
        },
        {"count", "null", "123456789.125", "err", "\"AttributeError: 'NoneType' object has no attribute 'count'\""},
        {
            "lt",
            "{\"k\": 5, \"a\": null}",
            "null",
            "err",
            "\"TypeError: '<' not supported between instances of 'dict' and 'NoneType'\""
        },
        {"iter", "2", "[]", "err", "\"TypeError: 'int' object is not iterable\""},
        {"count", "-4", "{}", "err", "\"AttributeError: 'int' object has no attribute 'count'\""},
        {
            "lower",
            "[null, 123456789.125]",
            "\"say \\\"hi\\\"\"",
            "err",
            "\"AttributeError: 'list' object has no attribute 'lower'\""
        },
        {"count", "2.0", "{}", "err", "\"AttributeError: 'float' object has no attribute 'count'\""},
        {"sorted", "-4", "\"1\"", "err", "\"TypeError: 'int' object is not iterable\""},
        {"count", "\"aa\"", "false", "err", "\"TypeError: must be str, not bool\""},
        {"lower", "3", "-3", "err", "\"AttributeError: 'int' object has no attribute 'lower'\""},
        {"lower", "null", "0.1", "err", "\"AttributeError: 'NoneType' object has no attribute 'lower'\""},
        {"len", "false", "\"aa\"", "err", "\"TypeError: object of type 'bool' has no len()\""},
        {"len", "-2", "123456789.125", "err", "\"TypeError: object of type 'int' has no len()\""},
        {"len", "1e-05", "\"it's\"", "err", "\"TypeError: object of type 'float' has no len()\""},
        {"iter", "2.0", "5", "err", "\"TypeError: 'float' object is not iterable\""},
        {"sorted", "1e-05", "0.1", "err", "\"TypeError: 'float' object is not iterable\""},
        {"sorted", "true", "-0.0", "err", "\"TypeError: 'bool' object is not iterable\""},
        {"count", "false", "false", "err", "\"AttributeError: 'bool' object has no attribute 'count'\""},
        {"lower", "false", "{\"b\": 1e-05}", "err", "\"AttributeError: 'bool' object has no attribute 'lower'\""},
        {"count", "\"5676696062\"", "[\"5\", \"\\u00e9\\u2028\\u0000\"]", "err", "\"TypeError: must be str, not list\""
        },
        {"count", "\"5\"", "{}", "err", "\"TypeError: must be str, not dict\""},
        {"lower", "0.1", "1.5", "err", "\"AttributeError: 'float' object has no attribute 'lower'\""},
        {"iter", "true", "\"a\"", "err", "\"TypeError: 'bool' object is not iterable\""},
        {"len", "null", "2.0", "err", "\"TypeError: object of type 'NoneType' has no len()\""},
        {"sorted", "null", "[[null, 4]]", "err", "\"TypeError: 'NoneType' object is not iterable\""},
        {
            "count",
            "{\"a\": [\"5\", 1.5, 2.0]}",
            "{\"b\": [\"5\", \"\\u00e9\\u2028\\u0000\"]}",
            "err",
            "\"AttributeError: 'dict' object has no attribute 'count'\""
        },
        {"count", "\"5\"", "-2", "err", "\"TypeError: must be str, not int\""},
        {
            "iter",
            "null",
            "[[\"aa\", 2.0, \"say \\\"hi\\\"\"], [5, -0.0]]",
            "err",
            "\"TypeError: 'NoneType' object is not iterable\""
        },
        {"count", "\"a\"", "null", "err", "\"TypeError: must be str, not NoneType\""},
        {"count", "\"a\"", "-0.0", "err", "\"TypeError: must be str, not float\""},
        {"str", "{}", "null", "ok", "\"{}\""},
        {"eq", "{}", "[]", "ok", "false"},
        {"eq", "false", "[true, \"aa\", [\"say \\\"hi\\\"\", -5, \"\"]]", "ok", "false"},
        {"sorted", "\"1\"", "1e+16", "ok", "[\"1\"]"},
        {"len", "{\"b\": []}", "{}", "ok", "1"},
        {"eq", "{}", "false", "ok", "false"},
        {"sorted", "\"say \\\"hi\\\"\"", "null", "ok", "[\" \", \"\\\"\", \"\\\"\", \"a\", \"h\", \"i\", \"s\", \"y\"]"
        },
        {"lower", "\"5\"", "2.0", "ok", "\"5\""},
        {"str", "[null, []]", "\"say \\\"hi\\\"\"", "ok", "\"[None, []]\""},
        {"eq", "-3", "-4", "ok", "false"},
        {"len", "\"a\"", "\"it's\"", "ok", "1"},
        {"round", "1.5", "null", "ok", "\"1.5\""},
        {"iter", "\"a\"", "\"a\"", "ok", "[\"a\"]"},
        {"in", "2.0", "\"\"", "ok", "false"},
        {"str", "null", "[\"\\u00e9\\u2028\\u0000\", [\"1\", null], \"it's\"]", "ok", "\"None\""},
        {"len", "[]", "2.0", "ok", "0"},
        {"iter", "\"a\"", "\"a\"", "ok", "[\"a\"]"},
        {"len", "[\"1\", [], \"5\"]", "1e-05", "ok", "3"},
        {"str", "[5]", "[[\"it's\", null, false], true]", "ok", "\"[5]\""},
        {"in", "1.5", "5", "ok", "false"},
        {"lt", "\"\\u00e9\\u2028\\u0000\"", "\"aa\"", "ok", "false"},
        {"str", "\"5\"", "false", "ok", "\"5\""},
        {"str", "3", "3", "ok", "\"3\""},
        {"str", "\"a\"", "[5]", "ok", "\"a\""},
        {"sorted", "\"a\"", "\"5676696062\"", "ok", "[\"a\"]"},
        {"eq", "[-5, \"both'\\\"\", \"5\"]", "null", "ok", "false"},
        {"eq", "[\"a\", true, \"a\"]", "{\"k\": -5}", "ok", "false"},
        {"count", "[true, null, \"5\"]", "{\"a\": -4}", "ok", "0"},
        {"in", "false", "[\"1\", [\"aa\", false], \"both'\\\"\"]", "ok", "false"},
        {"iter", "[5]", "null", "ok", "[5]"},
        {"count", "[[]]", "\"5\"", "ok", "0"},
        {"iter", "[\"a\", 4, 2]", "1e+16", "ok", "[\"a\", 4, 2]"},
        {"eq", "\"\\u00e9\\u2028\\u0000\"", "false", "ok", "false"},
        {"lt", "false", "true", "ok", "true"},
        {"str", "null", "[[], null]", "ok", "\"None\""},
        {"lower", "\"a\"", "\"a\"", "ok", "\"a\""},
        {"sorted", "[]", "true", "ok", "[]"},
        {"sorted", "[]", "-0.0", "ok", "[]"},
        {"sorted", "{\"k\": {}}", "{\"b\": {\"k\": \"\\u00e9\\u2028\\u0000\"}, \"k\": \"both'\\\"\"}", "ok", "[\"k\"]"},
        {"eq", "{}", "{}", "ok", "true"},
    };

    static Value apply(String op, Value x, Value y) {
        return switch (op) {
            case "count" -> PyInt.of(PyBuiltins.count(x, y));
            case "iter" -> PyList.of(PyBuiltins.iterate(x));
            case "len" -> PyInt.of(PyBuiltins.len(x));
            case "lower" -> new PyStr(PyBuiltins.lower(x));
            case "eq" -> PyBool.of(PyBuiltins.eq(x, y));
            case "lt" -> PyBool.of(PyBuiltins.lt(x, y));
            case "sorted" -> PyBuiltins.sorted(x);
            case "str" -> new PyStr(PyBuiltins.str(x));
            case "in" -> PyBool.of(PyBuiltins.contains(PyDict.of("a", 1, "5676696062", 2), x));
            case "round" -> new PyStr(PyFloats.repr(PyBuiltins.round(PyBuiltins.toDouble(x), 2)));
            default -> throw new IllegalArgumentException(op);
        };
    }

    /** CPython 3.11: int('٩') == 9, int('０９') == 9, float('٠.٥') == 0.5, int('\u20039 ') == 9; int('9\u00e9') raises. */
    @Test
    void intAndFloatTakeUnicodeDecimalDigitsAndSpaces() {
        assertEquals(java.math.BigInteger.valueOf(9), PyBuiltins.parseInt("\u0669", CPython.V3_11));
        assertEquals(java.math.BigInteger.valueOf(9), PyBuiltins.parseInt("\uff10\uff19", CPython.V3_11));
        assertEquals(java.math.BigInteger.valueOf(9), PyBuiltins.parseInt("\u20039 ", CPython.V3_11));
        assertEquals(0.5, PyBuiltins.parseFloat("\u0660.\u0665", CPython.V3_11));
        PyException e = org.junit.jupiter.api.Assertions.assertThrows(
                PyException.class, () -> PyBuiltins.parseInt("9\u00e9", CPython.V3_11));
        assertEquals(true, e.getMessage().contains("invalid literal for int() with base 10: '9\u00e9'"));
    }

    @Test
    void matchesCPython() {
        for (String[] c : CASES) {
            Value x = Json.parse(c[1]), y = Json.parse(c[2]), expected = Json.parse(c[4]);
            String label = c[0] + " " + PyRepr.repr(x) + " " + PyRepr.repr(y);
            if (c[3].equals("err")) {
                PyException e = org.junit.jupiter.api.Assertions.assertThrows(
                        PyException.class, () -> apply(c[0], x, y), label);
                assertEquals(expected.asStr(), e.pyType() + ": " + e.str(), label);
            } else {
                Value got = apply(c[0], x, y);
                assertEquals(
                        true,
                        PyBuiltins.eq(got, expected) && got.typeName().equals(expected.typeName()),
                        label + " -> " + PyRepr.repr(got) + ", expected " + PyRepr.repr(expected));
            }
        }
    }
}
