/**
 * Transcribed Python tools and how they are called. A {@link brokkr.tool.ToolDef} is a function's name, its
 * Python qualified name, its {@link brokkr.tool.Param}s and its body ({@link brokkr.tool.ToolFunction}: a pure
 * function of the world and its {@link brokkr.tool.Args}); {@link brokkr.tool.ToolSet} dispatches by name with
 * CPython's keyword binding and its exact {@code TypeError} texts ({@link brokkr.tool.PyBinding}). Dispatch never
 * throws: a failure is a {@link brokkr.tool.ToolSet.Outcome} carrying the world as it was when the call stopped
 * (kept in a {@link brokkr.tool.WorldCell}), because upstream's Python mutates in place and keeps the writes it
 * made before a raise. Depends on {@code brokkr.value} and {@code brokkr.python} only; the benchmarks bring the
 * tools.
 */
package brokkr.tool;
