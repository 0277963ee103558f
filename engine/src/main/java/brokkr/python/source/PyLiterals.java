package brokkr.python.source;

import brokkr.python.CPython;
import java.util.Map;

/**
 * Evaluates Python source text that holds a literal (or a display built from literals and builtins,
 * e.g. the values of a Python module's constants) into {@code brokkr.python.PyObjects} objects, with
 * {@link PyParser}'s syntax and errors under the given release.
 */
public final class PyLiterals {
    private PyLiterals() {}

    /** {@code eval(source)} with no globals but the builtins; a {@code PyException} if it is not one. */
    public static Object eval(String source, CPython python) {
        return new PyEval(name -> null, python).eval(PyParser.parse(source, python));
    }

    /** Same, with the given global names. */
    public static Object eval(String source, Map<String, Object> globals, CPython python) {
        return new PyEval(globals::get, python).eval(PyParser.parse(source, python));
    }
}
