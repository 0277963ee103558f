package brokkr.kernel;

import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

import java.lang.reflect.Field;
import java.util.Map;

/**
 * JShell's local execution engine (snippets run in this JVM, so magics and user code share one heap),
 * remembering the wrapper class of each invocation so the evaluator can read a snippet's variable as
 * the live object rather than JShell's {@code String} rendering of it. Interrupting relies on
 * {@link LocalExecutionControl#stop()}: since JDK 22 it weaves a stop check into every backward branch
 * of snippet code, so even {@code while (true) {}} ends without {@code Thread.stop}.
 */
final class CapturingExecutionControl extends LocalExecutionControl {
    private volatile String lastClass;

    @Override
    public String invoke(String className, String methodName) throws ExecutionControl.RunException,
            ExecutionControl.EngineTerminationException, ExecutionControl.InternalException {
        lastClass = className;
        return super.invoke(className, methodName);
    }

    /** The wrapper class of the last snippet invoked. */
    String lastClass() { return lastClass; }

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

        @Override public String name() { return "brokkr-local"; }

        @Override public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
            control = new CapturingExecutionControl();
            return control;
        }

        CapturingExecutionControl control() { return control; }
    }
}
