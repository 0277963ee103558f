package brokkr.python.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import brokkr.python.CPython;
import brokkr.python.PyException;
import brokkr.python.PyObjects;
import org.junit.jupiter.api.Test;

/**
 * Where CPython 3.11 and 3.13 differ in what evaluated source shows. The Unicode database (14.0.0 vs
 * 15.1.0): U+1FAE8 SHAKING FACE was assigned by Unicode 15.0, so 3.11 treats it as unassigned, not
 * printable ({@code repr} escapes it, the tokenizer calls it non-printable); 3.13 prints it. Slices:
 * hashable since 3.12, so a dict subscripted with one is a TypeError only in 3.11.
 */
class ProfilesTest {
    private static final String SHAKING_FACE = new String(Character.toChars(0x1FAE8));

    @Test
    void reprEscapesWhatTheReleasesUnicodeDatabaseDoesNotKnow() {
        assertEquals("'\\U0001fae8'", PyLiterals.eval("repr('\\U0001FAE8')", CPython.V3_11));
        assertEquals("'" + SHAKING_FACE + "'", PyLiterals.eval("repr('\\U0001FAE8')", CPython.V3_13));
        // U+1FAE0 MELTING FACE, assigned by Unicode 14.0, prints under both
        String melting = new String(Character.toChars(0x1FAE0));
        assertEquals("'" + melting + "'", PyLiterals.eval("repr('\\U0001FAE0')", CPython.V3_11));
        assertEquals("'" + melting + "'", PyLiterals.eval("repr('\\U0001FAE0')", CPython.V3_13));
        // containers render their items under the profile too
        Object list = PyLiterals.eval("['\\U0001FAE8']", CPython.V3_11);
        assertEquals("['\\U0001fae8']", PyObjects.repr(list, CPython.V3_11));
        assertEquals("['" + SHAKING_FACE + "']", PyObjects.repr(list, CPython.V3_13));
    }

    @Test
    void theTokenizerNamesACharacterPrintableOnlyIfTheReleaseDoes() {
        assertEquals(
                "invalid non-printable character U+1FAE8 (<string>, line 1)",
                syntaxError("f(" + SHAKING_FACE + ")", CPython.V3_11));
        assertEquals(
                "invalid character '" + SHAKING_FACE + "' (U+1FAE8) (<string>, line 1)",
                syntaxError("f(" + SHAKING_FACE + ")", CPython.V3_13));
        // an emoji of Unicode 6.0 is printable under both
        assertEquals("invalid character '\u2705' (U+2705) (<string>, line 1)", syntaxError("f(\u2705)", CPython.V3_11));
    }

    @Test
    void aKeyErrorQuotesTheKeyUnderTheProfile() {
        PyException e =
                assertThrows(PyException.class, () -> PyLiterals.eval("{'a': 1}['\\U0001FAE8']", CPython.V3_11));
        assertEquals("KeyError", e.pyType());
        assertEquals("'\\U0001fae8'", e.str());
        e = assertThrows(PyException.class, () -> PyLiterals.eval("{'a': 1}['\\U0001FAE8']", CPython.V3_13));
        assertEquals("'" + SHAKING_FACE + "'", e.str());
    }

    private static String syntaxError(String src, CPython python) {
        PyException e = assertThrows(PyException.class, () -> PyParser.parse(src, python), src);
        assertEquals("SyntaxError", e.pyType(), src);
        return e.str();
    }

    @Test
    void aSliceIsADictKeyOnlyWhereSlicesAreHashable() {
        PyException e = assertThrows(PyException.class, () -> PyLiterals.eval("{'a': 1}[1:2]", CPython.V3_11));
        assertEquals("TypeError: unhashable type: 'slice'", e.pyType() + ": " + e.str());
        e = assertThrows(PyException.class, () -> PyLiterals.eval("{'a': 1}[1:2]", CPython.V3_13));
        assertEquals("KeyError: slice(1, 2, None)", e.pyType() + ": " + e.str());
        // a sequence slices alike under both
        assertEquals("[2]", PyObjects.repr(PyLiterals.eval("[1, 2, 3][1:2]", CPython.V3_11)));
        assertEquals("[2]", PyObjects.repr(PyLiterals.eval("[1, 2, 3][1:2]", CPython.V3_13)));
    }
}
