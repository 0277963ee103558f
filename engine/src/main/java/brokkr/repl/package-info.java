/**
 * Agent harnesses and the Java REPL action space. {@link brokkr.repl.Harness} is the part of a candidate that
 * says how its model is driven: the benchmark's reference agent, or Brokkr's agent loop with its limits and,
 * for {@code action_space: repl}, its {@link brokkr.repl.ReplGuidance}. {@link brokkr.repl.JavaRepl} is that
 * action space: one tool, {@code java_eval}, whose code runs in the episode's {@code brokkr.sandbox.Sandbox},
 * where a benchmark's JSON tools appear as Java methods ({@link brokkr.repl.JavaApi}); each domain call a snippet
 * makes is made on the protocol's side as that tool's own call, so it is recorded and graded exactly as if the
 * model had called the JSON tool. Benchmarks (tau2, BFCL multi-turn) use it; it names none of them.
 */
package brokkr.repl;
