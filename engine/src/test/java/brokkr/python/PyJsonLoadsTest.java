package brokkr.python;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.Value;
import org.junit.jupiter.api.Test;

/** Behaviour the 3.11-recorded vectors cannot show (3.13 differences) and API details. */
class PyJsonLoadsTest {

    private static String err(String doc) {
        PyJsonLoads.JSONDecodeError e = assertThrows(PyJsonLoads.JSONDecodeError.class, () -> PyJsonLoads.loads(doc));
        assertEquals("JSONDecodeError", e.pyType());
        return e.str();
    }

    /** CPython 3.13 (gh-113149, PR #113227): the error is reported at the comma; examples from the PR. */
    @Test
    void trailingCommaAsCPython313() {
        assertEquals("Illegal trailing comma before end of array: line 1 column 5 (char 4)", err("[123,]"));
        assertEquals("Illegal trailing comma before end of object: line 1 column 9 (char 8)", err("{\"a\":123,}"));
        assertEquals("Illegal trailing comma before end of array: line 1 column 5 (char 4)", err("[123,  ]"));
        assertEquals("Illegal trailing comma before end of object: line 1 column 9 (char 8)", err("{\"a\":123,  }"));
        assertEquals("Illegal trailing comma before end of object: line 1 column 11 (char 10)", err("{\"spam\":42,}"));
        assertEquals("Expecting value: line 1 column 2 (char 1)", err("[,"));
        assertEquals("Expecting property name enclosed in double quotes: line 1 column 2 (char 1)", err("{,}"));
    }

    @Test
    void positionsCountCodePoints() {
        // "😀" is one code point in Python, two UTF-16 units in Java.
        assertEquals("Expecting value: line 1 column 7 (char 6)", err("[\"\uD83D\uDE00\", x]"));
        assertEquals("Expecting value: line 2 column 2 (char 7)", err("[\"\uD83D\uDE00\",\n \uD83D\uDE00]"));
        PyJsonLoads.JSONDecodeError e =
                assertThrows(PyJsonLoads.JSONDecodeError.class, () -> PyJsonLoads.loads("\n\n  x"));
        assertEquals("Expecting value", e.msg());
        assertEquals(4, e.pos());
        assertEquals(3, e.lineno());
        assertEquals(3, e.colno());
    }

    @Test
    void valuesKeepPythonTypesAndDictSemantics() {
        Value v = PyJsonLoads.loads(
                "{\"a\": 1, \"b\": 1.0, \"a\": 3, \"c\": [NaN, -Infinity, 123456789012345678901234567890, -0]}");
        PyDict d = v.asDict();
        assertEquals(java.util.List.of("a", "b", "c"), java.util.List.copyOf(d.keys()), "first position, last value");
        assertEquals(PyInt.of(3), d.get("a"));
        assertEquals(new PyFloat(1.0), d.get("b"));
        PyList c = d.get("c").asList();
        assertTrue(Double.isNaN(((PyFloat) c.get(0)).value()));
        assertEquals(new PyFloat(Double.NEGATIVE_INFINITY), c.get(1));
        assertEquals(
                "123456789012345678901234567890", ((PyInt) c.get(2)).value().toString());
        assertEquals(PyInt.of(0), c.get(3));
        assertEquals("\uD83D\uDE00", PyJsonLoads.loads("\"\\ud83d\\ude00\"").asStr(), "escaped surrogate pair joins");
        assertEquals("\uD800", PyJsonLoads.loads("\"\\ud800\"").asStr(), "lone surrogate kept");
    }

    @Test
    void onlyFourWhitespaceCharacters() {
        assertEquals(PyInt.of(1), PyJsonLoads.loads(" \t\r\n1 \t\r\n"));
        assertEquals("Expecting value: line 1 column 1 (char 0)", err("\u000b1"));
        assertEquals("Expecting value: line 1 column 1 (char 0)", err("\u00a01"));
        assertEquals("Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)", err("\uFEFF[]"));
    }

    @Test
    void deepNestingWithinTheLimitParsesAndBeyondIsARecursionError() {
        int depth = PyJsonLoads.MAX_DEPTH - 1;
        String ok = "[".repeat(depth) + "]".repeat(depth);
        Value v = PyJsonLoads.loads(ok);
        for (int i = 1; i < depth; i++) v = v.asList().get(0);
        assertTrue(v.asList().isEmpty());
        // Also on a fresh platform thread with the default stack size (not only the test runner's main thread).
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                PyJsonLoads.loads("{\"k\": [".repeat(depth / 2) + "]}".repeat(depth / 2));
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertNull(failure[0], "deep document on a default-size stack");
        int over = PyJsonLoads.MAX_DEPTH + 1;
        PyException e = assertThrows(PyException.class, () -> PyJsonLoads.loads("[".repeat(over) + "]".repeat(over)));
        assertEquals("RecursionError", e.pyType());
    }
}
