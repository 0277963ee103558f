package brokkr.domains.tau2.environment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.python.PyException;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import org.junit.jupiter.api.Test;

/** {@code calculate}: results and exception texts as CPython computed them for these expressions. */
class CalculateTest {
    static String run(Value v) {
        try {
            return Calculate.calculate(v);
        } catch (PyException e) {
            return e.pyType() + ": " + e.str();
        }
    }

    static final String[][] CASES = {
        {"2 + 2", "4.0"},
        {"1/3", "0.33"},
        {"2**10", "1024.0"},
        {"2**-1", "0.5"},
        {"-3//2", "-2.0"},
        {"-3.5//2", "-2.0"},
        {"7//-2", "-4.0"},
        {"(1+2)*3", "9.0"},
        {" 1.5*2", "3.0"},
        {"1.", "1.0"},
        {"  .5+.5", "1.0"},
        {"0.1+0.2", "0.3"},
        {"1.", "1.0"},
        {"1.", "1.0"},
        {"1.", "1.0"},
        {"1.", "1.0"},
        {"1.", "1.0"},
        {"", "SyntaxError: invalid syntax (<string>, line 0)"},
        {"   ", "SyntaxError: invalid syntax (<string>, line 0)"},
        {"(", "SyntaxError: '(' was never closed (<string>, line 1)"},
        {")", "SyntaxError: unmatched ')' (<string>, line 1)"},
        {"1 +", "SyntaxError: invalid syntax (<string>, line 1)"},
        {"1 2", "SyntaxError: invalid syntax (<string>, line 1)"},
        {"()", "TypeError: float() argument must be a string or a real number, not 'tuple'"},
        {"(1)(2)", "TypeError: 'int' object is not callable"},
        {"1/0", "ZeroDivisionError: division by zero"},
        {"1.0/0", "ZeroDivisionError: float division by zero"},
        {"1//0", "ZeroDivisionError: integer division or modulo by zero"},
        {"1.5//0", "ZeroDivisionError: float floor division by zero"},
        {"0**-1", "ZeroDivisionError: 0.0 cannot be raised to a negative power"},
        {
            "01",
            "SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"
        },
        {"00", "0.0"},
        {"(-8)**0.5", "TypeError: float() argument must be a string or a real number, not 'complex'"},
        {"1..2", "SyntaxError: invalid syntax (<string>, line 1)"},
        {"-0.001", "-0.0"},
        {"10**400", "OverflowError: int too large to convert to float"},
        {"10.0**400", "OverflowError: (34, 'Numerical result out of range')"},
        {"(", "SyntaxError: '(' was never closed (<string>, line 1)"},
        {"(1 2", "SyntaxError: '(' was never closed (<string>, line 1)"},
        {"--1", "1.0"},
        {"2**-2**2", "0.06"},
        {"-2**2", "-4.0"},
        {"(((3)))//2", "1.0"},
        {".3 / (2569.14) - -3.", "3.0"},
        {"142", "142.0"},
        {"-2727.37 + (-.46)", "-2727.83"},
        {"-0. / .23 // 262", "-0.0"},
        {"-765.90", "-765.9"},
        {"-.32 + 816 + 371 // 2.", "1000.68"},
        {"9. * 536.63 / -2. * .21", "-507.12"},
        {"6615.18 * -7. / 0.", "ZeroDivisionError: float division by zero"},
        {"788 // 4. - .88", "196.12"},
        {"203 - (6.)", "197.0"},
        {"639 ** 2 + 425 // 5.", "408406.0"},
        {"8. + -.47 / 577", "8.0"},
        {"8.", "8.0"},
        {".37 // 9. // -.18 * (7265.31)", "-0.0"},
        {"3. * (-292)", "-876.0"},
        {".3 ** 3 / .54", "0.05"},
        {"(401) + (.82) * 8996.63 ** 3", "597108745611.38"},
        {"7973.06", "7973.06"},
        {"2205.37", "2205.37"},
        {".13 ** 3", "0.0"},
        {"-2. // 4755.71 / 2. - (-134)", "133.5"},
        {"897 / -868 * 9. // 6.", "-2.0"},
        {"(-606)", "-606.0"},
        {"-7. + -911", "-918.0"},
        {"-2. - .4 + 770", "767.6"},
        {"-7436.86 / .79 - -7.", "-9406.75"},
        {"(-9.) - 0.", "-9.0"},
        {"94 - 49 // -.81 + 5142.13", "5297.13"},
        {"(.73) - -12 + 4316.51 ** 1", "4329.24"},
        {"1. / 0 // .89", "ZeroDivisionError: float division by zero"},
    };

    @Test
    void expressions() {
        for (String[] c : CASES) assertEquals(c[1], run(new PyStr(c[0])), c[0]);
    }

    @Test
    void nonStringArguments() {
        assertEquals("TypeError: 'NoneType' object is not iterable", run(PyNone.NONE));
        assertEquals("TypeError: 'int' object is not iterable", run(PyInt.of(123)));
        assertEquals("TypeError: 'float' object is not iterable", run(new PyFloat(1.5)));
        assertEquals("ValueError: Invalid characters in expression", run(PyList.of(new PyStr("1 + 2"))));
        assertEquals("ValueError: Invalid characters in expression", run(PyDict.of("v", "1")));
        assertEquals("TypeError: eval() arg 1 must be a string, bytes or code object", run(PyList.of(new PyStr("1"))));
        assertEquals("TypeError: 'in <string>' requires string as left operand, not int", run(PyList.of(PyInt.of(1))));
        assertEquals("ValueError: Invalid characters in expression", run(new PyStr("135.24 - 153.23X")));
    }
}
