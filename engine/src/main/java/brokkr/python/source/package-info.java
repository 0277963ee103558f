/**
 * Python source: what {@code eval(s)} does with a string, for hosts that run Python text a model wrote
 * (a call string such as {@code cd(folder='docs')}) or that read a Python module's literal constants.
 * {@link brokkr.python.source.PyParser} parses it as CPython's tokenizer and pegen parser do, with their
 * {@code SyntaxError} texts and precedence, into a {@link brokkr.python.source.PyExpr};
 * {@link brokkr.python.source.PyEval} evaluates that over {@code brokkr.python.PyObjects}' dynamic objects,
 * names resolved in the host's globals and then in {@link brokkr.python.PyBuiltins}' namespace;
 * {@link brokkr.python.source.PyLiterals} is the two in one call.
 *
 * <p>A package of its own because it is a language front end and an interpreter on top of the value
 * semantics of {@code brokkr.python} (operators, repr, hashing, builtins), which knows nothing of source
 * text: this package depends on {@code brokkr.python}, never the reverse. Every entry point takes the
 * {@link brokkr.python.CPython} release whose behaviour it reproduces. The host brings the objects its
 * globals hold ({@code PyObjects.Callable}, {@code PyObjects.Attributes}, {@link brokkr.python.source.PyEval.Deferred});
 * nothing here names a benchmark.
 */
package brokkr.python.source;
