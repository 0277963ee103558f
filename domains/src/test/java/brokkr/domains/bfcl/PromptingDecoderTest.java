package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import brokkr.domains.bfcl.PromptingDecoder.DecodeError;
import brokkr.domains.bfcl.PromptingDecoder.ReturnFormat;
import org.junit.jupiter.api.Test;

/**
 * Vectors of upstream's prompting-mode decoders (model_handler/utils.py default_decode_ast_prompting, ast_parse;
 * parser/java_parser.py, js_parser.py, json_parser.py, xml_parser.py). Upstream's Python and tree-sitter cannot
 * run here and no shared corpus holds prompting-mode records (the Java/JS verdict corpus decodes with the
 * identity), so every expected value is argued from reading those functions and tree-sitter-java 0.21.0 /
 * tree-sitter-javascript 0.21.4's grammars; the comment on each says why. Values are compared as the checker's
 * Python repr.
 */
class PromptingDecoderTest {

    private static String java(String text) {
        return PyObj.repr(PromptingDecoder.decode(text, ReturnFormat.JAVA, false));
    }

    private static String js(String text) {
        return PyObj.repr(PromptingDecoder.decode(text, ReturnFormat.JAVASCRIPT, false));
    }

    private static String py(String text) {
        return PyObj.repr(PromptingDecoder.decode(text, ReturnFormat.PYTHON, false));
    }

    private static String error(String text, ReturnFormat f) {
        DecodeError e = assertThrows(DecodeError.class, () -> PromptingDecoder.decode(text, f, false));
        return e.pyType() + ": " + e.getMessage();
    }

    @Test
    void javaNamedArgumentsAndLiterals() {
        // A string literal at the top loses its quotes (get_text[1:-1]); numbers, booleans, null are leaf text.
        assertEquals(
                "[{'Foo.bar': {'a': 'x y', 'n': '5', 'f': '2.5f', 'l': '10L', 'b': 'true', 'z': 'null', 'neg': '-3'}}]",
                java("[Foo.bar(a=\"x y\", n=5, f=2.5f, l=10L, b=true, z=null, neg=-3)]"));
        // Without brackets: default_decode_ast_prompting adds them, ast_parse cuts them again.
        assertEquals("[{'compute': {'x': '1'}}]", java("compute(x=1)"));
        // Code fences: strip("`\n ") removes the backticks and newlines only.
        assertEquals("[{'compute': {'x': '1'}}]", java("```\n[compute(x=1)]\n```"));
        // A statement's ';' is fine, as is its absence (tree-sitter's MISSING node is no ERROR).
        assertEquals("[{'compute': {'x': '1'}}]", java("[compute(x=1);]"));
    }

    @Test
    void javaStringsKeepTheirEscapesAndByteOffsetsShift() {
        // No unescaping: the source text between the quotes.
        assertEquals("[{'f': {'s': 'a\\\\\"b\\\\n'}}]", java("[f(s=\"a\\\"b\\n\")]"));
        // get_text slices the str with UTF-8 byte offsets: after 'é' (2 bytes) every slice is one character late.
        // f(a="é", b="xy"): the literal "é" is bytes 4..8, i.e. the characters '"é",'; b is bytes 10..11, '='.
        assertEquals("[{'f': {'a': 'é\"', '=': 'y\"'}}]", java("[f(a=\"é\", b=\"xy\")]"));
        // A char literal loses its quotes too; tree-sitter-java's takes several characters, so Python-style
        // single-quoted strings read as strings.
        assertEquals("[{'f': {'c': 'q', 's': 'abc'}}]", java("[f(c='q', s='abc')]"));
    }

    @Test
    void javaNestedValuesAreTokensJoinedWithoutSpaces() {
        // array_creation_expression: "new " + type + "[]" + the initializer's tokens joined.
        assertEquals("[{'f': {'a': 'new int[]{1,2,3}'}}]", java("[f(a=new int[]{1, 2, 3})]"));
        assertEquals("[{'f': {'a': 'new String[]{\"x\",\"y\"}'}}]", java("[f(a=new String[] {\"x\", \"y\"})]"));
        // Two dimensions come out as one "[]" (the dimensions node is not read).
        assertEquals("[{'f': {'a': 'new int[]{{1,2},{3}}'}}]", java("[f(a=new int[][]{{1, 2}, {3}})]"));
        // object_creation_expression: generic type tokens joined, arguments joined by ", " (nested strings quoted).
        assertEquals("[{'f': {'m': 'new HashMap<String,Integer>()'}}]", java("[f(m=new HashMap<String, Integer>())]"));
        assertEquals("[{'f': {'p': 'new Path(\"/a b\", 3)'}}]", java("[f(p=new Path(\"/a b\",3))]"));
        // An anonymous class body is dropped: the double-brace map is an empty constructor call.
        assertEquals(
                "[{'f': {'m': 'new HashMap<String,Object>()'}}]",
                java("[f(m=new HashMap<String, Object>() {{ put(\"k\", 1); }})]"));
        // A method invocation is verbatim, spaces included.
        assertEquals("[{'f': {'l': 'Arrays.asList(\"a\", \"b\")'}}]", java("[f(l=Arrays.asList(\"a\", \"b\"))]"));
        assertEquals(
                "[{'f': {'l': 'new ArrayList<>(Arrays.asList(1, 2))'}}]",
                java("[f(l=new ArrayList<>(Arrays.asList(1, 2)))]"));
        // Binary expressions, lambdas, casts, field access: tokens joined.
        assertEquals(
                "[{'f': {'s': '\"a\"+b', 'g': 'x->x*2', 'c': '(int)3.5', 'e': 'Color.RED'}}]",
                java("[f(s=\"a\" + b, g=x -> x * 2, c=(int) 3.5, e=Color.RED)]"));
        // Generics split ">>" into two '>'.
        assertEquals(
                "[{'f': {'m': 'new HashMap<String,List<String>>()'}}]",
                java("[f(m=new HashMap<String, List<String>>())]"));
        // A class literal is verbatim.
        assertEquals("[{'f': {'k': 'String.class'}}]", java("[f(k=String.class)]"));
    }

    @Test
    void javaArgumentSelection() {
        // Positional identifiers and class literals go under None; positional literals are dropped.
        assertEquals("[{'f': {'None': 'x'}}]", java("[f(x, 5, \"s\")]"));
        // A repeated name raises.
        assertEquals(
                "Exception: Error: Multiple arguments with the same name are not supported.",
                error("[f(a=1, a=2)]", ReturnFormat.JAVA));
        // The first method invocation of the tree in pre-order: the outer call; a nested call is a verbatim value.
        assertEquals("[{'outer': {'a': 'inner(b=1)'}}]", java("[outer(a=inner(b=1))]"));
        // Compound assignments are assignment_expressions too.
        assertEquals("[{'f': {'a': '1'}}]", java("[f(a+=1)]"));
        // Two statements: only the first call.
        assertEquals("[{'a': {'x': '1'}}]", java("[a(x=1); b(y=2)]"));
        // No method invocation at all: {} (not in call format).
        assertEquals("{}", java("[x = 5]"));
    }

    @Test
    void javaErrorPaths() {
        String syntax = "SyntaxError: Error parsing java the source code.";
        // Two calls separated by a comma are no Java: ERROR.
        assertEquals(syntax, error("[a(x=1), b(y=2)]", ReturnFormat.JAVA));
        // A list display is no Java expression; an empty char literal is none either.
        assertEquals(syntax, error("[f(s='')]", ReturnFormat.JAVA));
        assertEquals(syntax, error("[f(a=[1, 2])]", ReturnFormat.JAVA));
        // An array creation without an initializer: traverse_node(None) -> AttributeError.
        assertEquals(
                "AttributeError: 'NoneType' object has no attribute 'type'",
                error("[f(a=new int[5])]", ReturnFormat.JAVA));
    }

    @Test
    void javascriptCalls() {
        // Values are the right side's text verbatim, a pair of surrounding quotes cut.
        assertEquals(
                "[{'validate': {'s': 'abc', 'q': 'x', 'n': '42', 'a': '[1, \"two\"]', 'o': '{a: 1, b: \"c\"}', 'b': 'false'}}]",
                js("[validate(s=\"abc\", q='x', n=42, a=[1, \"two\"], o={a: 1, b: \"c\"}, b=false)]"));
        // No unescaping, and "a" + "b" loses its outer quotes only.
        assertEquals("[{'f': {'s': 'a\" + \"b', 't': 'x\\\\ny'}}]", js("[f(s=\"a\" + \"b\", t=\"x\\ny\")]"));
        // Arrow functions, template strings, member calls, new: verbatim.
        assertEquals(
                "[{'obj.run': {'cb': '(x) => x * 2', 't': '`v${1 + 2}`', 'd': 'new Date(2020, 1)'}}]",
                js("[obj.run(cb=(x) => x * 2, t=`v${1 + 2}`, d=new Date(2020, 1))]"));
        // Positional identifier and true go under None (and collide); false and literals are dropped.
        assertEquals("[{'f': {'None': 'x'}}]", js("[f(x, false, 3)]"));
        assertEquals(
                "Exception: Error: Multiple arguments with the same name are not supported.",
                error("[f(x, true)]", ReturnFormat.JAVASCRIPT));
        // Two calls in one statement are a sequence expression: no call, None.
        assertEquals("None", js("[a(x=1), b(y=2)]"));
        // Statements separated by ';' or a line break: the first call.
        assertEquals("[{'a': {'x': '1'}}]", js("[a(x=1)\nb(y=2)]"));
        assertEquals(
                "SyntaxError: Error js parsing the source code.", error("[f(a=1) g(b=2)]", ReturnFormat.JAVASCRIPT));
        assertEquals("SyntaxError: Error js parsing the source code.", error("[f(a=)]", ReturnFormat.JAVASCRIPT));
        assertEquals("SyntaxError: Error js parsing the source code.", error("[f(a={b: })]", ReturnFormat.JAVASCRIPT));
    }

    @Test
    void pythonCalls() {
        // Keywords only; dotted names from the attribute chain; tuples stay tuples; -x is the operand negated.
        assertEquals(
                "[{'math.factorial': {'number': 5, 's': 'a', 'l': [1, 2.5], 'd': {'k': True}, 't': (1, 2), 'n': -3, 'x': None}}]",
                py("[math.factorial(number=5, s='a', l=[1, 2.5], d={'k': True}, t=(1, 2), n=-3, x=None)]"));
        // Positional arguments are not read; a nested call without keywords is its unparse, with keywords a dict.
        assertEquals("[{'f': {'a': \"g(1, 'x')\", 'b': {'h': {'y': 2}}}}]", py("[f(0, a=g(1, 'x'), b=h(y=2))]"));
        // A binary operation is evaluated; a name is its id.
        assertEquals("[{'f': {'a': 7, 'b': 'foo'}}]", py("[f(a=3 + 4, b=foo)]"));
        // Several calls.
        assertEquals("[{'a': {'x': 1}}, {'b': {}}]", py("[a(x=1), b()]"));
        // Quotes around the list: the brackets are added first ("['[a(x=1)]']"), so strip("'") finds none to strip
        // and the list's one element is a str, no call.
        assertEquals("AssertionError: ", error("'[a(x=1)]'", ReturnFormat.PYTHON));
        // Unsupported nodes raise.
        assertEquals(
                "Exception: Unsupported AST type: <class 'ast.Attribute'>", error("[f(a=x.y)]", ReturnFormat.PYTHON));
        // An element that is no call: assert isinstance(elem, ast.Call).
        assertEquals("AssertionError: ", error("[f(a=1), 2]", ReturnFormat.PYTHON));
        assertEquals(
                "SyntaxError: invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)",
                error("[f(a=1) g(b=2)]", ReturnFormat.PYTHON));
    }

    @Test
    void toolCallTag() {
        assertEquals(
                "[{'f': {'a': 1}}]",
                PyObj.repr(PromptingDecoder.decode("Sure. <TOOLCALL>[f(a=1)]</TOOLCALL>", ReturnFormat.PYTHON, true)));
        DecodeError e =
                assertThrows(DecodeError.class, () -> PromptingDecoder.decode("[f(a=1)]", ReturnFormat.PYTHON, true));
        // The message holds the input after default_decode_ast_prompting's wrapping.
        assertEquals("No tool call tag found in input string: [f(a=1)]", e.getMessage());
    }

    @Test
    void jsonAndXml() {
        assertEquals(
                "[{'f': {'a': 1, 'b': 'x'}}, {'g': {}}]",
                PyObj.repr(PromptingDecoder.decode(
                        "```json\n[{\"function\":\"f\",\"parameters\":{\"a\":1,\"b\":\"x\"}},{\"function\":\"g\",\"parameters\":{}}]\n```",
                        ReturnFormat.JSON,
                        false)));
        // Not JSON: json_parser returns [] (an empty answer, in call format).
        assertEquals("[]", PyObj.repr(PromptingDecoder.decode("[f(a=1)]", ReturnFormat.JSON, false)));
        assertEquals(
                "[{'f': {'a': 1, 'b': 2.5, 'c': True, 'd': [1, 'x'], 'e': 'str', 'n': None}}]",
                PyObj.repr(PromptingDecoder.decode(
                        "<functions><function name=\"f\"><params><param name=\"a\" value=\"1\" type=\"integer\"/>"
                                + "<param name=\"b\" value=\"2.5\" type=\"float\"/><param name=\"c\" value=\"True\" type=\"boolean\"/>"
                                + "<param name=\"d\" value=\"[1, 'x']\" type=\"array\"/><param name=\"e\" value=\"str\"/>"
                                + "<param name=\"n\" value=\"\" type=\"null\"/></params></function></functions>",
                        ReturnFormat.VERBOSE_XML,
                        false)));
        assertEquals(
                "[{'f': {'a': 1, 's': 'a & b'}}]",
                PyObj.repr(PromptingDecoder.decode(
                        "<functions><function name=\"f\"><param name=\"a\" type=\"integer\"> 1 </param>"
                                + "<param name=\"s\" type=\"string\">a &amp; b</param></function></functions>",
                        ReturnFormat.CONCISE_XML,
                        false)));
        assertEquals(
                "ValueError: invalid literal for int() with base 10: 'x'",
                error(
                        "<functions><function name=\"f\"><param name=\"a\" type=\"integer\">x</param></function></functions>",
                        ReturnFormat.CONCISE_XML));
    }
}
