package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.Json;
import brokkr.value.PyList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-written cases for the quirks the corpus exercises in bulk (expected texts follow ast_checker.py). */
class AstCheckerTest {
    static final PyList DOCS = (PyList) Json.parse("""
            [{"name": "math.f", "description": "d", "parameters": {"type": "dict", "properties": {
               "n": {"type": "integer", "description": ""},
               "x": {"type": "float", "description": ""},
               "s": {"type": "string", "description": ""},
               "flag": {"type": "boolean", "description": ""},
               "xs": {"type": "array", "items": {"type": "string"}, "description": ""},
               "t": {"type": "tuple", "items": {"type": "integer"}, "description": ""},
               "d": {"type": "dict", "description": ""},
               "ys": {"type": "array", "items": {"type": "integer"}, "description": ""},
               "e": {"type": "array", "items": {"type": "string"}, "description": ""}},
              "required": ["n"]}}]""");

    static final String ANSWER = """
            [{"math.f": {"n": [1], "x": [2, ""], "s": ["New York, NY", ""], "flag": [true, ""],
              "xs": [["a b", "C"], ""], "t": [[1, 2], ""], "d": [{"k": ["v"], "opt": ["", "w"]}, ""]}}]""";

    /** No optional marker: nested type checks run on every answer. */
    static final String STRICT = """
            [{"math.f": {"n": [1], "ys": [[1, 2]], "e": []}}]""";

    static AstChecker.Result check(String params, boolean u2d) {
        return check(ANSWER, params, u2d);
    }

    static AstChecker.Result check(String answer, String params, boolean u2d) {
        BfclTask t = new BfclTask("simple_python_x", BfclCategory.SIMPLE_PYTHON, null, DOCS, (PyObj.Seq)
                PyObj.fromJson(Json.parse(answer)));
        PyObj out = PyObj.fromJson(Json.parse("[{\"" + (u2d ? "math_f" : "math.f") + "\": " + params + "}]"));
        return AstChecker.check(t.checkerDocs(), (PyObj.Seq) out, t.possibleAnswer(), "simple_python", u2d);
    }

    static List<String> errors(AstChecker.Result r) {
        return r.errors().stream().map(PyObj::str).toList();
    }

    @Test
    void pythonEqualityAndIntToFloat() {
        // An int answer for a float doc makes the value a "variable": no type special-casing, then
        // `2.0 in [2, ""]`, true under Python's ==; an int value is first converted to float.
        assertTrue(check("{\"n\": 1, \"x\": 2.0}", true).valid(), "2.0 == 2 under in");
        assertTrue(check("{\"n\": 1, \"x\": 2}", true).valid(), "int auto-converted to float");
        assertEquals(
                List.of("Incorrect type for parameter 'n'. Expected type integer, got float. Parameter value: 1.0."),
                errors(check("{\"n\": 1.0}", true)));
        AstChecker.Result r = check("{\"n\": true}", true);
        assertEquals("type_error:simple", r.errorType(), "bool is not int for type()");
        assertEquals(
                List.of("Incorrect type for parameter 'n'. Expected type integer, got bool. Parameter value: True."),
                errors(r));
        assertTrue(check("{\"n\": 1}", false).valid(), "dotted name without underscore_to_dot");
        assertEquals(
                List.of("Function name 'math_f' not found in model output."),
                errors(AstChecker.check(
                        new BfclTask("simple_python_x", BfclCategory.SIMPLE_PYTHON, null, DOCS, (PyObj.Seq)
                                        PyObj.fromJson(Json.parse(ANSWER)))
                                .checkerDocs(),
                        (PyObj.Seq) PyObj.fromJson(Json.parse("[{\"math.f\": {\"n\": 1}}]")),
                        (PyObj.Seq) PyObj.fromJson(Json.parse(ANSWER)),
                        "simple_python",
                        true)));
    }

    @Test
    void stringStandardisation() {
        assertTrue(check("{\"n\": 1, \"s\": \"new york ny\"}", true).valid());
        AstChecker.Result r = check("{\"n\": 1, \"s\": \"New York!\"}", true);
        assertEquals(
                List.of(
                        "Invalid value for parameter 's': 'New York!'. Expected one of ['New York, NY', '']. Case insensitive."),
                errors(r));
        assertTrue(check("{\"n\": 1, \"xs\": [\"AB\", \"c\"]}", true).valid(), "list elements standardised");
    }

    @Test
    void tuples() {
        assertTrue(
                check("{\"n\": 1, \"t\": {\"$tuple\": [1, 2]}}", true).valid(),
                "a tuple is a list when the doc says tuple");
        AstChecker.Result r = check("{\"n\": 1, \"xs\": {\"$tuple\": [\"a b\", \"C\"]}}", true);
        assertEquals(
                List.of(
                        "Incorrect type for parameter 'xs'. Expected type array, got tuple. Parameter value: ('a b', 'C')."),
                errors(r));
    }

    @Test
    void nestedTypeCheckIsSkippedWhenAnAnswerIsOptional() {
        // "xs" answers contain "": a non-list answer item leaves the nested flag set, so [1, 2] passes
        // the type check and fails later, in list_checker.
        AstChecker.Result r = check("{\"n\": 1, \"xs\": [1, 2]}", true);
        assertEquals("value_error:list/tuple", r.errorType());
        assertEquals(
                List.of("Invalid value for parameter 'xs': [1, 2]. Expected one of [['a b', 'C'], '']."), errors(r));
    }

    @Test
    void nestedTypeErrors() {
        // Every answer is a list and the elements fail: the value's type is the answers' type, so the
        // nested error comes back alone.
        AstChecker.Result r = check(STRICT, "{\"n\": 1, \"ys\": [\"a\"], \"e\": []}", true);
        assertEquals("type_error:nested", r.errorType());
        assertEquals(
                List.of("Nested type checking failed for parameter 'ys'. Expected outer type array with inner type"
                        + " <class 'int'>. Parameter value: ['a']."),
                errors(r));
        // No accepted value at all (the live_simple_106 defect): the nested loop finds nothing, there is
        // no answer type, and type_checker falls through to append the simple message after the nested one.
        r = check(STRICT, "{\"n\": 1, \"ys\": [1, 2], \"e\": []}", true);
        assertEquals("type_error:simple", r.errorType());
        assertEquals(
                List.of(
                        "Nested type checking failed for parameter 'e'. Expected outer type array with inner type <class 'str'>."
                                + " Parameter value: [].",
                        "Incorrect type for parameter 'e'. Expected type array, got list. Parameter value: []."),
                errors(r));
    }

    @Test
    void dictCheckerSecondLoopOverridesTheErrorType() {
        // "k" has a wrong value (first loop breaks with dict_value), then "k" is... present, so no override:
        AstChecker.Result r = check("{\"n\": 1, \"d\": {\"k\": \"x\"}}", true);
        assertEquals("value_error:dict_value", r.errorType());
        assertEquals(List.of("Invalid value for parameter 'k': 'x'. Expected one of ['v']."), errors(r));
        // an unexpected key breaks the first loop; the missing required key "k" is then reported too and wins.
        r = check("{\"n\": 1, \"d\": {\"z\": \"v\"}}", true);
        assertEquals("value_error:dict_key", r.errorType());
        assertEquals(List.of("Unexpected dict key parameter: 'z'.", "Missing dict key parameter: 'k'."), errors(r));
        assertTrue(check("{\"n\": 1, \"d\": {\"k\": \"V\"}}", true).valid(), "dict values are standardised");
        assertFalse(
                check("{\"n\": 1, \"d\": {\"k\": \"v\", \"opt\": \"q\"}}", true).valid());
    }

    @Test
    void missingOptionalAndUnexpected() {
        assertEquals(List.of("Unexpected parameter: 'zz'."), errors(check("{\"n\": 1, \"zz\": 1}", true)));
        assertEquals(List.of("Missing required parameter: 'n'."), errors(check("{}", true)));
    }

    @Test
    void validReturnKeepsUnclearOnlyWithoutValueCheckers() {
        assertEquals(
                "simple_function_checker:unclear", check("{\"n\": 1}", true).errorType());
        assertEquals(null, check("{\"n\": 1, \"s\": \"New York, NY\"}", true).errorType());
    }
}
