package brokkr.domains.bfcl.multiturn;

import java.util.Map;

/**
 * Evaluates Python source text that holds a literal (or a display built from literals and builtins,
 * e.g. the values of upstream's {@code long_context.py}) into {@code brokkr.python.PyObjects} objects,
 * with the call-string parser's syntax and errors.
 */
public final class PyLiterals {
    private PyLiterals() {}

    /** {@code eval(source)} with no globals but the builtins; a {@code PyException} if it is not one. */
    public static Object eval(String source) {
        return new PyEval(name -> null).eval(PyParser.parse(source));
    }

    /** Same, with the given global names. */
    public static Object eval(String source, Map<String, Object> globals) {
        return new PyEval(globals::get).eval(PyParser.parse(source));
    }
}
