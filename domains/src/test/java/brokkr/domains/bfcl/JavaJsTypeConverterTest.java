package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The quirks of upstream's java_type_converter.py / js_type_converter.py that
 * ../shared/conformance/bfcl/java-js/README.md lists, as the Python repr of the converted value.
 */
class JavaJsTypeConverterTest {
    private static String java(String v, String type, String nested) {
        return PyObj.repr(JavaTypeConverter.convert(v, type, nested));
    }

    private static String js(String v, String type, String nested) {
        return PyObj.repr(JsTypeConverter.convert(v, type, nested));
    }

    @Test
    void javaIntegersUsePythonReAndInt() {
        assertEquals("9", java("9\n", "integer", null)); // $ before one final newline
        assertEquals("9", java("٩", "integer", null)); // \d and int() take Unicode digits
        assertEquals("9", java("０９", "integer", null));
        assertEquals("20", java("020", "integer", null)); // not octal
        assertEquals("'9\\n\\n'", java("9\n\n", "integer", null));
        for (String rejected : new String[] {" 9", "9 ", "+9", "9L", "9.0", "0x9", "9_0", "9e0", "(int) 9"})
            assertEquals(PyObj.repr(PyObj.str(rejected)), java(rejected, "integer", null), rejected);
    }

    @Test
    void javaLongDoubleBooleanChar() {
        assertEquals("'42'", java("42", "long", null));
        assertEquals("42", java("42l", "long", null));
        assertEquals("42", java("042L", "long", null));
        assertEquals("42", java("42L\n", "long", null));
        assertEquals("0.5", java("5e-1", "double", null));
        assertEquals("5.0", java("5", "double", null));
        assertEquals("'.5'", java(".5", "double", null));
        assertEquals("'0.5f'", java("0.5f", "double", null));
        assertEquals("3.0", java("3f", "float", null));
        assertEquals("True", java("true", "boolean", null));
        assertEquals("'true\\n'", java("true\n", "boolean", null));
        assertEquals("\"'a'\"", java("'a'", "char", null)); // ^\'.$\' never matches
        assertEquals("'\"abc\"'", java("\"abc\"", "String", null)); // quotes kept
    }

    @Test
    void javaArraysKeepQuotesAndSplitOnEveryComma() {
        assertEquals("['\"a\"', '\"b\"']", java("new String[]{\"a\", \"b\"}", "Array", "String"));
        assertEquals("['a', 'b']", java("int[] x = new String[]{a, b,};", "Array", "String"));
        assertEquals("'{1, 2}'", java("{1, 2}", "Array", "integer"));
        assertEquals("['1L']", java("new long[]{1L}", "Array", "integer"));
        assertEquals("'new int[4]{1}'", java("new int[4]{1}", "Array", "integer"));
    }

    @Test
    void javaArrayListCutsFirstAndLastCharacterOfStrings() {
        assertEquals("['a', 'b']", java("new ArrayList<>(Arrays.asList(\"a\", 'b'))", "ArrayList", "String"));
        assertEquals("['b']", java("new ArrayList<String>(Arrays.asList(abc))", "ArrayList", "String"));
        assertEquals("['\"x\"', '42']", java("new ArrayList<Object>() {{ add(\"x\"); add(42); }}", "ArrayList", "any"));
        assertEquals("[]", java("new ArrayList<>()", "ArrayList", "integer"));
        assertEquals("'new ArrayList<List<String>>()'", java("new ArrayList<List<String>>()", "ArrayList", "String"));
    }

    @Test
    void javaHashMapNeedsDoubleQuotedKeys() {
        assertEquals(
                "{'a': 'public', 'b': 50, 'c': 5.0, 'd': True, 'e': \"'x'\"}",
                java(
                        "new HashMap<String, Object>() {{ put(\"a\", public); put(\"b\", 50L); put(\"c\", 5f);"
                                + " put(\"d\", true); put(\"e\", 'x'); }}",
                        "HashMap",
                        null));
        assertEquals("{}", java("new HashMap<>() {{ put('a', 1); }}", "HashMap", null));
        assertEquals("'Map.of(\"a\", 1)'", java("Map.of(\"a\", 1)", "HashMap", null));
    }

    @Test
    void jsScalars() {
        assertEquals("4.0", js("4", "float", null));
        assertEquals("'3e1'", js("3e1", "float", null)); // no exponent, unlike Java double
        assertEquals("12", js("12n", "Bigint", null));
        assertEquals("'abc'", js("'abc'", "String", null));
        assertEquals("'`abc`'", js("`abc`", "String", null));
        assertEquals("''", js("\"", "String", null)); // a lone quote is both ends
    }

    @Test
    void jsArrays() {
        assertEquals("['a', 'b', '']", js("['a', b,]", "array", "String")); // empty element kept
        assertEquals("[1, 2]", js("[1, 2] // items", "array", "integer"));
        assertEquals("'const xs = [1]'", js("const xs = [1]", "array", "integer"));
        assertEquals("[\"'5'\"]", js("['5']", "array", "integer")); // quoted numbers stay strings, quotes kept
        assertEquals("[[10, 15], [20, 25]]", js("[[10, 15], [20, 25]]", "array", "float"));
        assertEquals("'myItemList'", js("  myItemList\n", "array", "String")); // returned stripped
    }

    @Test
    void jsObjects() {
        assertEquals("{'method': 'GET', 'x': 'y'}", js("{method: 'GET, x: y'}", "dict", null));
        assertEquals("{'a': True, 'b': 50}", js("{\"a\": 'true', b: '50'}", "dict", null));
        assertEquals("{'a': '{b: 1'}", js("{a: {b: 1}, c: 2}", "dict", null)); // lazy: truncated at the first }
        assertEquals("{}", js("{}", "dict", null));
    }
}
