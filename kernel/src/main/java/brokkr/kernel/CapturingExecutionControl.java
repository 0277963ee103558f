package brokkr.kernel;

import java.io.ByteArrayInputStream;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.constant.ClassDesc;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * JShell's local execution engine (snippets run in this JVM, so magics and user code share one heap),
 * remembering the wrapper class of each invocation so the evaluator can read a snippet's variable as
 * the live object rather than JShell's {@code String} rendering of it. Interrupting relies on
 * {@link LocalExecutionControl#stop()}: since JDK 22 it weaves a stop check into every backward branch
 * of snippet code, so even {@code while (true) {}} ends without {@code Thread.stop}. Before that, every
 * snippet class has its exit calls redirected ({@link ExitGuard}), so a cell cannot end the JVM.
 */
final class CapturingExecutionControl extends LocalExecutionControl {
    private volatile String lastClass;
    private volatile boolean stopRequested;
    private final ClassLoader classLoader;

    CapturingExecutionControl() {
        super();
        // LocalExecutionControl's default loader delegate makes the cells' class loader (a child of the system
        // class loader, grown by addToClasspath) the context class loader of the thread creating it; the
        // delegate keeps no other public handle on it
        this.classLoader = Thread.currentThread().getContextClassLoader();
    }

    /** The loader of snippet classes and of the jars added to the session. */
    ClassLoader classLoader() {
        return classLoader;
    }

    @Override
    public void load(ClassBytecodes[] cbcs)
            throws ClassInstallException, NotImplementedException, EngineTerminationException {
        ClassHierarchyResolver classes = snippetClasses(cbcs);
        super.load(Stream.of(cbcs)
                .map(c -> new ClassBytecodes(c.name(), ExitGuard.redirect(c.bytecodes(), classes)))
                .toArray(ClassBytecodes[]::new));
    }

    /** The JDK and class path, then the classes being loaded, then the snippet classes loaded before. */
    private ClassHierarchyResolver snippetClasses(ClassBytecodes[] batch) {
        Map<String, byte[]> byName = new HashMap<>();
        for (ClassBytecodes c : batch) byName.put(c.name(), c.bytecodes());
        ClassHierarchyResolver earlier = desc -> {
            try {
                Class<?> c = findClass(binaryName(desc));
                if (c.isInterface()) return ClassHierarchyResolver.ClassHierarchyInfo.ofInterface();
                Class<?> s = c.getSuperclass();
                return ClassHierarchyResolver.ClassHierarchyInfo.ofClass(s == null ? null : ClassDesc.of(s.getName()));
            } catch (ClassNotFoundException e) {
                return null;
            }
        };
        return ClassHierarchyResolver.defaultResolver()
                .orElse(ClassHierarchyResolver.ofResourceParsing(desc -> {
                    byte[] b = byName.get(binaryName(desc));
                    return b == null ? null : new ByteArrayInputStream(b);
                }))
                .orElse(earlier);
    }

    private static String binaryName(ClassDesc desc) {
        String d = desc.descriptorString();
        return d.substring(1, d.length() - 1).replace('/', '.');
    }

    @Override
    public String invoke(String className, String methodName)
            throws ExecutionControl.RunException, ExecutionControl.EngineTerminationException,
                    ExecutionControl.InternalException {
        lastClass = className;
        return super.invoke(className, methodName);
    }

    /**
     * A stop asked for before the snippet's code runs (while JShell compiles it, or before the cell reached
     * it): {@link LocalExecutionControl#stop()} ignores a stop while no user code runs, so without this the
     * snippet would run as if never interrupted. Cleared by {@link #clearStop()} when the next cell begins.
     */
    void requestStop() {
        stopRequested = true;
    }

    void clearStop() {
        stopRequested = false;
    }

    @Override
    protected String invoke(Method doitMethod) throws Exception {
        if (stopRequested) throw new ExecutionControl.StoppedException();
        return super.invoke(doitMethod);
    }

    /** The wrapper class of the last snippet invoked. */
    String lastClass() {
        return lastClass;
    }

    /** A snippet variable's value: the static field of its wrapper class. */
    Object field(String className, String name) throws ReflectiveOperationException {
        Class<?> c = findClass(className);
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(null);
    }

    /** Hands JShell one instance, so the evaluator keeps a handle on it. */
    static final class Provider implements ExecutionControlProvider {
        private CapturingExecutionControl control;

        @Override
        public String name() {
            return "brokkr-local";
        }

        @Override
        public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
            control = new CapturingExecutionControl();
            return control;
        }

        CapturingExecutionControl control() {
            return control;
        }
    }
}
