package brokkr.python.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import brokkr.python.CPython;
import brokkr.python.PyException;
import org.junit.jupiter.api.Test;

/** CPython 3.11 {@code eval()} syntax errors as {@code str(e)} (texts recorded in fuzz-seed11). */
class PyParserTest {
    private static String error(String src) {
        PyException e = assertThrows(PyException.class, () -> PyParser.parse(src, CPython.V3_11), src);
        assertEquals("SyntaxError", e.pyType(), src);
        return e.str();
    }

    @Test
    void tokenizerErrorsWinOverParserErrors() {
        assertEquals("unmatched ')' (<string>, line 1)", error("cd folder='..')"));
        assertEquals("unmatched ')' (<string>, line 1)", error("pwd())"));
        assertEquals(
                "unterminated string literal (detected at line 1) (<string>, line 1)", error("cd(folder=documents')"));
        // a lone '!' or '$' is an operator the grammar rejects; the unterminated string later still wins
        assertEquals(
                "unterminated string literal (detected at line 1) (<string>, line 1)",
                error("comment(tweet_id = 10, comment_content = Safety first! Remember.')"));
        assertEquals(
                "unterminated string literal (detected at line 1) (<string>, line 1)",
                error("send_message(receiver_id=USR003',message='$1.')"));
        assertEquals(
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)",
                error("book_flight(access_token=abc', travel_date='2026-02-28', x='y)"));
    }

    @Test
    void parserErrors() {
        assertEquals("'(' was never closed (<string>, line 1)", error("cd(folder='shared'"));
        assertEquals("'(' was never closed (<string>, line 1)", error("get_user_tweets(username=#AdventureAwaits')"));
        assertEquals("invalid syntax (<string>, line 1)", error("find(=1)"));
        assertEquals("invalid syntax (<string>, line 1)", error("a(); b()"));
        assertEquals("invalid syntax (<string>, line 0)", error(""));
        assertEquals("invalid syntax (<string>, line 0)", error("   "));
        assertEquals("positional argument follows keyword argument (<string>, line 1)", error("mv(x=1, 2)"));
        assertEquals("keyword argument repeated: folder (<string>, line 1)", error("cd(folder='a', folder='a')"));
        assertEquals(
                "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)",
                error("post_tweet(content=Exploring the world, one city at a time!', tags=['#Travel'])"));
        // a bad line continuation is reported only if the parser gets there
        assertEquals(
                "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)",
                error("post_tweet(content=- Observation 1: x \\n+ y')"));
        assertEquals("unexpected character after line continuation character (<string>, line 1)", error("f(a=\\n)"));
    }

    /** pegen's second-pass rules and its quirks, as CPython 3.11.7 reports them. */
    @Test
    void invalidRulesOfTheSecondPass() {
        // the soft-keyword exemption of invalid_expression is a prefix match: 'c' (of 'case') and 'm' are exempt
        assertEquals("invalid syntax (<string>, line 1)", error("f(c 2)"));
        assertEquals("invalid syntax. Perhaps you forgot a comma? (<string>, line 1)", error("f(cases 2)"));
        assertEquals(
                "Missing parentheses in call to 'print'. Did you mean print(...)? (<string>, line 1)",
                error("f(print x)"));
        // the comma hint comes before invalid_arguments
        assertEquals(
                "invalid syntax. Perhaps you forgot a comma? (<string>, line 1)",
                error("get_flight_cost(travel_from='ORD', travel_to='abc',2 travel_date='M')"));
        assertEquals(
                "invalid syntax. Maybe you meant '==' or ':=' instead of '='? (<string>, line 1)",
                error("book_flight*(access_token='bc', card_id='x')"));
        assertEquals(
                "cannot assign to expression here. Maybe you meant '==' instead of '='? (<string>, line 1)",
                error("absolute_value-(nub*r=-1.5)"));
        // reading the end of the input inside brackets is the error, whatever rule was about to fail
        assertEquals(
                "'(' was never closed (<string>, line 1)",
                error("place_order(order_type='Buy',sy#mbol='MSFT',price=310.23)"));
        assertEquals("'(' was never closed (<string>, line 1)", error("sort(file_name='prject_analysis.txt'0"));
        // escapes are decoded when the literal is built (non-ASCII counts 10 bytes); a later tokenizer error wins
        assertEquals(
                "(unicode error) 'unicodeescape' codec can't decode bytes in position 12-16: truncated \\uXXXX escape (<string>, line 1)",
                error("message_login(user_id='\\u0055\\u0053\\u003\\u0031')"));
        assertEquals(
                "(unicode error) 'unicodeescape' codec can't decode bytes in position 10-12: truncated \\xXX escape (<string>, line 1)",
                error("x('\u00e9\\x4')"));
        assertEquals(
                "unterminated string literal (detected at line 1) (<string>, line 1)",
                error("mv(source='a', destination='\\u0061\\u*0072\\u0\n073')"));
        assertEquals("invalid syntax (<string>, line 1)", error("#c"));
    }

    @Test
    void literalForms() {
        assertEquals(PyLiterals.eval("0x1f", CPython.V3_11), java.math.BigInteger.valueOf(31));
        assertEquals(PyLiterals.eval("0o17 + 0b1 + 1_000", CPython.V3_11), java.math.BigInteger.valueOf(1016));
        assertEquals("document", PyLiterals.eval("('docu'\n'ment')", CPython.V3_11));
        assertEquals("type", PyLiterals.eval("'\\u0074\\x79\\160e'", CPython.V3_11));
        assertEquals("a\\nb", PyLiterals.eval("r'a\\nb'", CPython.V3_11));
        assertEquals(Double.POSITIVE_INFINITY, PyLiterals.eval("1e999", CPython.V3_11));
        assertEquals(
                "{'a': 1, 'b': [2, (3,)]}",
                brokkr.python.PyObjects.repr(PyLiterals.eval("dict(a=1, **{'b': [2, (3,)]})", CPython.V3_11)));
        assertEquals(
                "[1, 2, 3]",
                brokkr.python.PyObjects.repr(PyLiterals.eval("list((1, 2,)) + [*[3]]  # comment", CPython.V3_11)));
    }
}
