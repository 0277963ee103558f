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
 * <p>Two object models: {@link brokkr.value.Value}'s JSON-like one (tau2's tools) and
 * {@link brokkr.python.PyObjects}' dynamic one (tuples, sets, non-str keys, custom objects: BFCL's
 * multi-turn backends and evaluated source, {@code brokkr.python.source}); each rule is written once and
 * shared where both need it ({@link brokkr.python.PyBuiltins}: {@code float()}, {@code int()},
 * list.sort; {@link brokkr.python.PyArgumentBinding}: a call's arguments bound to parameters).
 *
 * <p>Where CPython releases differ (BFCL's upstream runs 3.11, tau2-bench's 3.13), the difference is a
 * value of the {@link brokkr.python.CPython} profile, passed where the behaviour differs; its javadoc lists
 * the differences and the known ones that are not (yet) profile values. Forms without a profile name the
 * release they render for ({@code PyRepr}: 3.13; {@code PyObjects}: {@link brokkr.python.PyObjects#PYTHON}).
 *
 * <p>Verified against vectors CPython wrote (engine/src/test/python/gen_python_vectors.py,
 * engine/src/test/resources/python-vectors, PythonVectorsTest). The oracle corpora were recorded
 * with CPython 3.13; the vectors with 3.11, which agrees everywhere except in the constructs below,
 * which the vectors avoid (the str.isprintable vectors over every code point check
 * {@link brokkr.python.CPython#V3_11} exactly):
 * <ul>
 *   <li>json.loads trailing commas: 3.13 "Illegal trailing comma before end of array/object" at the
 *       comma (gh-113149), 3.11 "Expecting value"/"Expecting property name ..." after it;</li>
 *   <li>str repr printability: Unicode 15.1 (3.13) vs 14.0 (3.11), differing only on the 5,109
 *       printable code points that 15.0/15.1 assigned ({@code UnicodePrintable}, {@link brokkr.python.CPython#isPrintable});</li>
 *   <li>json.dumps(allow_nan=False) error text (current CPython appends {@code ": " + repr(x)});</li>
 *   <li>the nesting depth at which json.loads raises RecursionError.</li>
 * </ul>
 */
package brokkr.python;
