/**
 * The notebook face: the Jupyter kernel ({@link brokkr.kernel.BrokkrKernel} on JJava's messaging, served by
 * {@link brokkr.kernel.KernelServer}, installed by {@link brokkr.kernel.KernelSpec}) and the terminal REPL
 * ({@link brokkr.kernel.ReplCommand}), both running cells through one {@link brokkr.kernel.CellEvaluator}: magics
 * from {@code brokkr.magics} and Java by JShell in this JVM ({@link brokkr.kernel.JShellEvaluator}), so a cell's value
 * is the live object and the renderers can draw it. Cell code cannot end the JVM ({@link brokkr.kernel.ExitGuard}),
 * and the channels drop unsigned or replayed messages instead of dying on them. The magics that work on the Java
 * session itself ({@code %maven}, {@code %jars}, {@code %time}, {@code %vars}) live here, beside the evaluator.
 * {@link brokkr.kernel.KernelCommands} adds {@code kernel} and {@code repl} to the CLI as a
 * {@code brokkr.command.CommandSet} service, so a headless command never loads jjava, JShell or JLine.
 */
package brokkr.kernel;
