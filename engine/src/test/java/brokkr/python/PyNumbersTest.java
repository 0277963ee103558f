package brokkr.python;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import org.junit.jupiter.api.Test;

/** The brief's named cases, readable at a glance; the bulk is in PythonVectorsTest. */
class PyNumbersTest {

    @Test
    void floatRepr() {
        assertEquals("1e+16", PyFloats.repr(1e16));
        assertEquals("1e-05", PyFloats.repr(1e-5));
        assertEquals("0.1", PyFloats.repr(0.1));
        assertEquals("5e-324", PyFloats.repr(Double.MIN_VALUE));
        assertEquals("1.7976931348623157e+308", PyFloats.repr(Double.MAX_VALUE));
        assertEquals("-0.0", PyFloats.repr(-0.0));
        assertEquals("inf", PyFloats.repr(Double.POSITIVE_INFINITY));
        assertEquals("nan", PyFloats.repr(Double.NaN));
        assertEquals("9999999999999998.0", PyFloats.repr(9999999999999998.0));
        assertEquals("1e+22", PyFloats.repr(1e22));
        assertEquals("0.0001", PyFloats.repr(1e-4));
    }

    @Test
    void roundHalfEvenOnTheBinaryValue() {
        assertEquals(new PyFloat(2.67), PyRound.round(new PyFloat(2.675), 2));
        assertEquals(PyInt.of(0), PyRound.round(new PyFloat(0.5)));
        assertEquals(PyInt.of(2), PyRound.round(new PyFloat(1.5)));
        assertEquals(PyInt.of(2), PyRound.round(new PyFloat(2.5)));
        assertEquals(new PyFloat(0.12), PyRound.round(new PyFloat(0.125), 2));
        assertEquals(new PyFloat(1200.0), PyRound.round(new PyFloat(1250.0), -2));
        assertEquals(new PyFloat(-0.0), PyRound.round(new PyFloat(-0.4), 0));
        assertEquals(PyInt.of(200), PyRound.round(PyInt.of(250), -2));
        assertEquals(PyInt.of(12345), PyRound.round(PyInt.of(12345), 3));
        assertEquals(PyInt.of(0), PyRound.round(PyInt.of(12345), -10));
        assertEquals(PyInt.of(0), PyRound.round(PyInt.of(12345), Integer.MIN_VALUE));
        assertEquals(PyInt.of(0), PyRound.round(PyInt.of(50), -2), "half to even");
        assertEquals(PyInt.of(-200), PyRound.round(PyInt.of(-150), -2), "half to even");
        assertEquals(new PyFloat(1.5), PyRound.round(new PyFloat(1.5), new PyInt(java.math.BigInteger.TEN.pow(30))));
        assertEquals(PyInt.of(1), PyRound.round(PyBool.TRUE, PyNone.NONE));
        PyException e = assertThrows(PyException.class, () -> PyRound.round(new PyFloat(Double.NaN)));
        assertEquals("ValueError: cannot convert float NaN to integer", e.getMessage());
        e = assertThrows(PyException.class, () -> PyRound.round(new PyFloat(1.7976931348623157e308), -308));
        assertEquals("OverflowError", e.pyType());
    }

    @Test
    void formatFixedIsExactNotStringFormat() {
        assertEquals("0.12", PyFormat.format(0.125, ".2f"));
        assertEquals("2.67", PyFormat.format(2.675, ".2f"));
        assertEquals("1.0050", PyFormat.format(1.005, ".4f"));
        assertEquals("-0.00", PyFormat.format(-0.001, ".2f"));
        assertEquals("0.00", PyFormat.format(-0.001, "z.2f"));
        assertEquals("1,234,567.89", PyFormat.format(1234567.891, ",.2f"));
        assertEquals("0,001,234.00", PyFormat.format(1234.0, "012,.2f"));
        assertEquals("12.50%", PyFormat.format(0.125, ".2%"));
        assertEquals("inf", PyFormat.fixed(Double.POSITIVE_INFINITY, 2));
        assertEquals("3.1416", PyFormat.fixed(Math.PI, 4));
        assertEquals("1,234", PyFormat.format(PyInt.of(1234), ","));
        assertEquals("1.23e+03", PyFormat.format(1234.5678, ".3g"));
        assertEquals("12.0", PyFormat.format(12.0, ".3"));
        assertEquals("0xff", PyFormat.format(PyInt.of(255), "#x"));
        assertEquals("abc       ", PyFormat.format(new PyStr("abc"), "<10"));
        assertThrows(UnsupportedOperationException.class, () -> PyFormat.format(PyInt.of(65), "c"));
    }

    @Test
    void truthiness() {
        assertFalse(PyTruth.truthy(PyNone.NONE));
        assertFalse(PyTruth.truthy(new PyFloat(-0.0)));
        assertTrue(PyTruth.truthy(new PyFloat(Double.NaN)));
        assertFalse(PyTruth.truthy(new PyStr("")));
        assertFalse(PyTruth.truthy(PyList.empty()));
        assertTrue(PyTruth.truthy(PyDict.of("a", null)));
    }

    @Test
    void equality() {
        assertTrue(PyOps.eq(PyInt.of(1), new PyFloat(1.0)));
        assertTrue(PyOps.eq(new PyFloat(1.0), PyBool.TRUE));
        assertFalse(PyOps.eq(new PyFloat(Double.NaN), new PyFloat(Double.NaN)));
        assertFalse(PyOps.eq(
                new PyInt(java.math.BigInteger.TWO.pow(53).add(java.math.BigInteger.ONE)), new PyFloat(0x1p53)));
        assertTrue(PyOps.eq(PyDict.of("a", 1, "b", 2), PyDict.of("b", 2.0, "a", true)));
        assertFalse(PyOps.eq(PyList.of(PyInt.of(1), PyInt.of(2)), PyList.of(PyInt.of(2), PyInt.of(1))));
        assertFalse(PyOps.eq(new PyStr("1"), PyInt.of(1)));
    }
}
