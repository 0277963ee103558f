package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.tools.JavaFileManager.Location;
import javax.tools.JavaFileObject;
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

    /**
     * The JDK image's listings, made once per process ({@link SandboxClassPath.JdkImage}), are the standard file
     * manager's own: for every package of three system modules, in a file manager that lists anew and in two sandbox
     * file managers (the second from the cache), the same files in the same order, with the same binary names and
     * kinds; and a second file manager's answers are the cached ones, not listed again.
     */
    @Test
    void theJdkImagesCachedListingsAreTheStandardFileManagersOwn() throws IOException {
        Set<JavaFileObject.Kind> kinds = Set.of(JavaFileObject.Kind.CLASS, JavaFileObject.Kind.SOURCE);
        try (StandardJavaFileManager plain = SandboxClassPath.JdkImage.uncachedFileManager();
                StandardJavaFileManager first = SandboxClassPath.JdkImage.uncachedFileManager();
                StandardJavaFileManager second = SandboxClassPath.JdkImage.uncachedFileManager()) {
            SandboxClassPath a = SandboxClassPath.of(first, SandboxImage.get().jar());
            SandboxClassPath b = SandboxClassPath.of(second, SandboxImage.get().jar());
            int packages = 0, files = 0;
            for (Set<Location> set : plain.listLocationsForModules(StandardLocation.SYSTEM_MODULES)) {
                for (Location module : set) {
                    String name = plain.inferModuleName(module);
                    Location inA = a.getLocationForModule(StandardLocation.SYSTEM_MODULES, name);
                    Location inB = b.getLocationForModule(StandardLocation.SYSTEM_MODULES, name);
                    assertEquals(name, SandboxClassPath.JdkImage.moduleOf(first, inA));
                    // Every package of three modules (all of them took 4 s of ./test's CPU).
                    if (!Set.of("java.base", "java.sql", "jdk.jshell").contains(name)) continue;
                    Set<String> pkgs = new TreeSet<>();
                    pkgs.add("");
                    for (JavaFileObject f : plain.list(module, "", Set.of(JavaFileObject.Kind.CLASS), true)) {
                        String binary = plain.inferBinaryName(module, f);
                        pkgs.add(binary.contains(".") ? binary.substring(0, binary.lastIndexOf('.')) : "");
                    }
                    for (String pkg : pkgs) {
                        List<String> expected = describe(plain, module, plain.list(module, pkg, kinds, false));
                        assertEquals(expected, describe(a, inA, a.list(inA, pkg, kinds, false)), name + "/" + pkg);
                        assertEquals(expected, describe(b, inB, b.list(inB, pkg, kinds, false)), name + "/" + pkg);
                        assertSame(a.list(inA, pkg, kinds, false), b.list(inB, pkg, kinds, false), name + "/" + pkg);
                        packages++;
                        files += expected.size();
                    }
                }
            }
            assertTrue(packages > 150 && files > 5_000, packages + " packages, " + files + " files");
            // A recursive listing, the kind JShell's completion asks for.
            Location base = plain.getLocationForModule(StandardLocation.SYSTEM_MODULES, "java.base");
            Location baseA = a.getLocationForModule(StandardLocation.SYSTEM_MODULES, "java.base");
            assertEquals(
                    describe(plain, base, plain.list(base, "java.util", kinds, true)),
                    describe(a, baseA, a.list(baseA, "java.util", kinds, true)));
        }
    }

    private static List<String> describe(
            javax.tools.JavaFileManager fm, Location location, Iterable<JavaFileObject> listed) throws IOException {
        List<String> out = new ArrayList<>();
        for (JavaFileObject f : listed)
            out.add(f.toUri() + " " + f.getKind() + " " + fm.inferBinaryName(location, f) + " " + fm.isSameFile(f, f)
                    + " " + fm.contains(location, f));
        return out;
    }
}
