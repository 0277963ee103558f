package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The str, number, membership, JSON and date semantics the banking_knowledge tools use, against what
 * CPython 3.13 does (values worked out with the interpreter's documented rules: str.split / str.strip
 * whitespace, str.title, float(), int(), abs(), `in`, json.loads(parse_int=float), datetime.strptime).
 */
class PyTextSemanticsTest {
    @Test
    void splitAndStripUsePythonsWhitespaceNotJavas() {
        assertEquals(List.of("a", "b", "c"), PyStrings.split(" a\u00a0b\u3000\u001fc\u2028"));
        assertEquals(
                List.of("a\u200bb", "\ufeffc"), PyStrings.split("a\u200bb \ufeffc"), "ZWSP and BOM are not whitespace");
        assertEquals(List.of(), PyStrings.split(" \t\n\u0085 "));
        assertEquals("x y", PyStrings.strip("\u2029\u00a0x y\u001c"));
        assertTrue(PyStrings.isSpace(0x1c) && PyStrings.isSpace(0x85) && !PyStrings.isSpace(0x180e));
    }

    @Test
    void lowerUpperTitleAndIsdigit() {
        assertEquals("i\u0307stanbul", PyStrings.lower("\u0130stanbul"));
        assertEquals("σίσυφος", PyStrings.lower("ΣΊΣΥΦΟΣ"), "final sigma");
        assertEquals("STRASSE", PyStrings.upper("straße"));
        assertEquals("Unauthorized Fraudulent Charge", PyStrings.title("unauthorized fraudulent charge"));
        assertEquals("They'Re 2Nd", PyStrings.title("they're 2nd"));
        assertTrue(PyStrings.isDigit("0123") && PyStrings.isDigit("²") && PyStrings.isDigit("٣"));
        assertFalse(PyStrings.isDigit("") || PyStrings.isDigit("12a") || PyStrings.isDigit("½"));
    }

    @Test
    void floatIntAbsAndMembership() {
        assertEquals(1234.5, PyBuiltins.toFloat(new PyStr(" 1_234.5\n")));
        assertEquals(Double.NEGATIVE_INFINITY, PyBuiltins.toFloat(new PyStr("-Infinity")));
        assertEquals(
                "could not convert string to float: '$5'",
                assertThrows(PyException.class, () -> PyBuiltins.toFloat(new PyStr("$5")))
                        .str());
        assertEquals(
                "float() argument must be a string or a real number, not 'list'",
                assertThrows(PyException.class, () -> PyBuiltins.toFloat(PyList.empty()))
                        .str());
        assertEquals(PyInt.of(-2), PyBuiltins.intOf(new PyFloat(-2.9)));
        assertEquals(
                "cannot convert float infinity to integer",
                assertThrows(PyException.class, () -> PyBuiltins.intOf(new PyFloat(Double.POSITIVE_INFINITY)))
                        .str());
        assertEquals(PyInt.of(12), PyBuiltins.intOfAny(new PyStr(" 12 ")));
        assertEquals(
                "invalid literal for int() with base 10: '1.5'",
                assertThrows(PyException.class, () -> PyBuiltins.intOfAny(new PyStr("1.5")))
                        .str());
        assertEquals(new PyFloat(2.5), PyBuiltins.abs(new PyFloat(-2.5)));
        assertEquals(
                "bad operand type for abs(): 'str'",
                assertThrows(PyException.class, () -> PyBuiltins.abs(new PyStr("1")))
                        .str());
        assertTrue(PyBuiltins.in(new PyStr("ell"), new PyStr("hello")));
        assertTrue(PyBuiltins.in(new PyFloat(1.0), PyList.of(PyInt.of(1))), "1.0 == 1");
        assertTrue(PyBuiltins.in(new PyStr("k"), PyDict.of("k", 1)));
        assertEquals(
                "'in <string>' requires string as left operand, not int",
                assertThrows(PyException.class, () -> PyBuiltins.in(PyInt.of(1), new PyStr("1")))
                        .str());
        assertEquals(
                "argument of type 'NoneType' is not iterable",
                assertThrows(PyException.class, () -> PyBuiltins.in(new PyStr("a"), PyNone.NONE))
                        .str());
        assertEquals(
                "unhashable type: 'list'",
                assertThrows(PyException.class, () -> PyBuiltins.in(PyList.empty(), PyDict.empty()))
                        .str());
    }

    @Test
    void jsonLoadsWithIntegersAsFloats() {
        Value v = PyJsonLoads.loads("{\"a\": 33, \"b\": [1, 2.5], \"c\": true}", true);
        assertEquals(new PyFloat(33.0), v.asDict().get("a"));
        assertEquals(PyList.of(new PyFloat(1.0), new PyFloat(2.5)), v.asDict().get("b"));
        assertEquals(PyBool.TRUE, v.asDict().get("c"));
        assertEquals(PyInt.of(33), PyJsonLoads.loads("33"));
        assertEquals(
                "the JSON object must be str, bytes or bytearray, not dict",
                assertThrows(PyException.class, () -> PyJsonLoads.loads(PyDict.empty(), true))
                        .str());
    }

    @Test
    void strptimeAsCpythonMatchesIt() {
        assertEquals(LocalDateTime.of(2025, 9, 1, 0, 0), PyDates.strptime(new PyStr("9/1/2025"), "%m/%d/%Y"));
        assertEquals(
                LocalDateTime.of(2025, 11, 3, 14, 5, 9),
                PyDates.strptime(new PyStr("11/03/2025 14:05:09"), "%m/%d/%Y %H:%M:%S"));
        assertEquals(
                "time data '2025-11-03' does not match format '%m/%d/%Y'",
                assertThrows(PyException.class, () -> PyDates.strptime(new PyStr("2025-11-03"), "%m/%d/%Y"))
                        .str());
        assertEquals(
                "unconverted data remains:  10:00:00",
                assertThrows(PyException.class, () -> PyDates.strptime(new PyStr("11/03/2025 10:00:00"), "%m/%d/%Y"))
                        .str());
        assertEquals(
                "day is out of range for month",
                assertThrows(PyException.class, () -> PyDates.strptime(new PyStr("02/30/2025"), "%m/%d/%Y"))
                        .str());
        assertEquals(
                "strptime() argument 1 must be str, not int",
                assertThrows(PyException.class, () -> PyDates.strptime(PyInt.of(1), "%m/%d/%Y"))
                        .str());
    }
}
