package brokkr.python;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyList;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class PyJsonTest {
    private final PyDict v =
            PyDict.of("b", PyList.of(new PyFloat(1.0), new PyFloat(Double.NaN)), "a", "\u00e9\uD83D\uDE00");

    @Test
    void optionsMatchPython() {
        assertEquals("{\"b\": [1.0, NaN], \"a\": \"\\u00e9\\ud83d\\ude00\"}", PyJson.dumps(v));
        assertEquals(
                "{\"a\":\"\u00e9\uD83D\uDE00\",\"b\":[1.0,NaN]}",
                PyJson.dumps(v, PyJson.DumpOptions.COMPACT.withSortKeys(true).withEnsureAscii(false)));
        assertEquals(
                "{\n\"b\": [\n1.0,\nNaN\n],\n\"a\": \"\\u00e9\\ud83d\\ude00\"\n}",
                PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(0)),
                "indent=0 still breaks lines");
        assertEquals(
                "{\n  \"b\": [\n    1.0,\n    NaN\n  ],\n  \"a\": \"\\u00e9\\ud83d\\ude00\"\n}",
                PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2)));
    }

    @Test
    void allowNanFalseIsAValueError() {
        PyException e =
                assertThrows(PyException.class, () -> PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withAllowNan(false)));
        assertEquals("ValueError", e.pyType());
        assertTrue(e.str().startsWith("Out of range float values are not JSON compliant"));
    }

    @Test
    void streamsToAnyAppendable() {
        StringWriter w = new StringWriter();
        PyJson.write(v, PyJson.DumpOptions.SORTED, w);
        assertEquals(PyJson.dumps(v, PyJson.DumpOptions.SORTED), w.toString());
    }
}
