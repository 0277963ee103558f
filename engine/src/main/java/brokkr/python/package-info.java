/**
 * CPython semantics that transcribed benchmark code depends on, character for character:
 * {@code json.dumps} ({@link brokkr.python.PyJson}), {@code json.loads} with its error texts
 * ({@link brokkr.python.PyJsonLoads}), {@code float.__repr__} ({@link brokkr.python.PyFloats}),
 * {@code repr}/{@code str} ({@link brokkr.python.PyRepr}), {@code round}
 * ({@link brokkr.python.PyRound}), {@code format}/f-strings ({@link brokkr.python.PyFormat}),
 * truthiness ({@link brokkr.python.PyTruth}), {@code ==} and ordering ({@link brokkr.python.PyOps}),
 * {@code + - *} and their augmented forms ({@link brokkr.python.PyArith}), pydantic 2's lax-mode model
 * validation and {@code ValidationError} texts ({@link brokkr.python.PydanticSchema},
 * {@link brokkr.python.Pydantic}; vectors from gen_pydantic_vectors.py),
 * code point string order ({@link brokkr.python.PyStrings}) and the int/str digit limit
 * ({@link brokkr.python.PyInts}).
 *
 * <p>Verified against vectors CPython wrote (engine/src/test/python/gen_python_vectors.py,
 * engine/src/test/resources/python-vectors, PythonVectorsTest). The oracle corpora were recorded
 * with CPython 3.13; the vectors with 3.11, which agrees everywhere except in the constructs below,
 * where this package follows 3.13 and the vectors avoid the difference:
 * <ul>
 *   <li>json.loads trailing commas: 3.13 "Illegal trailing comma before end of array/object" at the
 *       comma (gh-113149), 3.11 "Expecting value"/"Expecting property name ..." after it;</li>
 *   <li>str repr printability: Unicode 15.1 (3.13) vs 14.0 (3.11), differing only on the 5,109
 *       printable code points that 15.0/15.1 assigned ({@code UnicodePrintable});</li>
 *   <li>json.dumps(allow_nan=False) error text (current CPython appends {@code ": " + repr(x)});</li>
 *   <li>the nesting depth at which json.loads raises RecursionError.</li>
 * </ul>
 */
package brokkr.python;
