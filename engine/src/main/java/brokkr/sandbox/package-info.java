/**
 * Java snippets run for a model, contained: one {@link brokkr.sandbox.Sandbox} is a separate JVM for one episode
 * (JShell's remote execution: snippets compiled in the harness, defined and run in the child), with the heap,
 * time and output limits and the isolation (bubblewrap where present) of its {@link brokkr.sandbox.SandboxConfig};
 * whatever a snippet does is an evaluation result, never a failure of the harness. {@link brokkr.sandbox.SandboxPool}
 * keeps started sandboxes warm, handed out once and never reused, and {@link brokkr.sandbox.SandboxImage} builds the
 * child's module (a jar whose descriptor opens nothing) and its ahead-of-time cache, on the Java runtime
 * {@code SandboxRuntime} links once per JDK without the JDK's diagnostic modules. The child runs only four classes of this package,
 * {@link brokkr.sandbox.SandboxAgent}, {@code SandboxWire}, {@link brokkr.sandbox.SandboxBridge} and
 * {@link brokkr.sandbox.MiniJson}: they must need nothing but the JDK and each other (an architecture rule), so that a
 * snippet sees none of the harness's classes and the sandbox never fails on a class it cannot load. What the child
 * sends is plain data ({@code SandboxWire}'s protocol, never Java serialization), each frame tagged with the
 * child's own key, and {@code SandboxLimits} holds the
 * operating-system limits its JVM cannot set itself (the stderr tail, the pids cgroup, the plain process's hiding).
 */
package brokkr.sandbox;
