package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * A sandbox's snippets compile against the sandbox JVM's class path (its image's jar), not the harness's:
 * a harness class (on this test JVM's class path) is a compile error, as the sandbox JVM sees it, instead
 * of compiling and failing at run time; and javac no longer indexes the harness's jars once per episode.
 */
class SandboxClassPathTest {
    private static final SandboxConfig CONFIG = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(20));

    @Test
    void harnessClassesDoNotCompileAndTheSandboxOwnDo() {
        try (Sandbox s = Sandbox.start(CONFIG)) {
            for (String use : List.of(
                    "brokkr.value.PyDict.empty()",
                    "new brokkr.sandbox.SandboxConfig(64, java.time.Duration.ofSeconds(1), 10, null)",
                    "org.junit.jupiter.api.Assertions.fail(\"x\")")) {
                Sandbox.EvalResult r = s.evaluate(use, Sandbox.CallHandler.NONE);
                assertEquals(
                        Sandbox.Kind.COMPILE,
                        r.error() == null ? null : r.error().kind(),
                        use + ": " + r);
                assertTrue(
                        r.error().message().contains("does not exist")
                                || r.error().message().contains("cannot find symbol"),
                        r.error().message());
            }
            Sandbox.EvalResult bridge =
                    s.evaluate("brokkr.sandbox.SandboxBridge.map(\"a\", 1).size()", Sandbox.CallHandler.NONE);
            assertEquals("1", bridge.value(), String.valueOf(bridge.error()));
            Sandbox.EvalResult jdk = s.evaluate(
                    "new java.util.TreeMap<>(Map.of(\"b\", 2, \"a\", 1)).toString()", Sandbox.CallHandler.NONE);
            assertEquals("\"{a=1, b=2}\"", jdk.value(), String.valueOf(jdk.error()));
        }
    }

    /**
     * The loader javac looks for plugins and processors in sees none of the harness's classes or service files: the
     * standard file manager's was a URLClassLoader under the harness's application class loader, searched for
     * {@code META-INF/services} in every task (this test JVM's class path has JUnit's service files).
     */
    @Test
    void theCompilersPluginLoaderSeesNothingOfTheHarness() throws IOException {
        try (StandardJavaFileManager std =
                ToolProvider.getSystemJavaCompiler().getStandardFileManager(null, null, null)) {
            SandboxClassPath fm = SandboxClassPath.of(std, SandboxImage.get().jar());
            for (var location : List.of(
                    StandardLocation.CLASS_PATH,
                    StandardLocation.ANNOTATION_PROCESSOR_PATH,
                    StandardLocation.PLATFORM_CLASS_PATH)) {
                ClassLoader loader = fm.getClassLoader(location);
                assertThrows(ClassNotFoundException.class, () -> loader.loadClass("org.junit.jupiter.api.Test"));
                assertThrows(ClassNotFoundException.class, () -> loader.loadClass(Sandbox.class.getName()));
                assertNull(
                        loader.getResource("META-INF/services/org.junit.platform.engine.TestEngine"),
                        location.getName());
                assertFalse(loader.getResources("META-INF/services/com.sun.source.util.Plugin")
                        .hasMoreElements());
                assertFalse(java.util.ServiceLoader.load(com.sun.source.util.Plugin.class, loader)
                        .iterator()
                        .hasNext());
            }
        }
    }
}
