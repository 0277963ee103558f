package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * What a sandbox JVM starts from: a jar of only the sandbox's own classes (a snippet cannot load the
 * harness's), and the JDK's AOT cache for it, which changes how fast a sandbox starts, never what it does.
 */
class SandboxImageTest {
    private static final SandboxConfig CONFIG = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(20));

    @Test
    void theJarHoldsOnlyTheSandboxClasses() throws Exception {
        SandboxImage image = SandboxImage.get();
        try (JarFile jar = new JarFile(image.jar().toFile())) {
            List<String> names = jar.stream().map(JarEntry::getName).sorted().toList();
            for (String c : List.of("SandboxAgent", "SandboxWire", "SandboxBridge", "MiniJson")) {
                assertTrue(names.contains("brokkr/sandbox/" + c + ".class"), c + " in " + names);
            }
            for (String n : names) {
                assertTrue(
                        n.matches(
                                "brokkr/sandbox/(SandboxAgent|SandboxWire|SandboxBridge|MiniJson)(\\$[^/]*)?\\.class"),
                        "only sandbox classes: " + n);
            }
        }
    }

    @Test
    void aSnippetCannotLoadTheHarnessClasses() {
        try (Sandbox s = Sandbox.start(CONFIG)) {
            for (String harnessClass :
                    List.of("brokkr.sandbox.Sandbox", "brokkr.value.PyDict", "brokkr.experiment.ExperimentStore")) {
                Sandbox.EvalResult r = s.evaluate("Class.forName(\"" + harnessClass + "\")", Sandbox.CallHandler.NONE);
                assertEquals(Sandbox.Kind.EXCEPTION, r.error().kind(), harnessClass);
                assertTrue(
                        r.error().message().contains("ClassNotFoundException"),
                        r.error().message());
            }
            Sandbox.EvalResult bridge = s.evaluate(
                    "Class.forName(\"brokkr.sandbox.SandboxBridge\").getSimpleName()", Sandbox.CallHandler.NONE);
            assertEquals("\"SandboxBridge\"", bridge.value(), String.valueOf(bridge.error()));
        }
    }

    @Test
    void theAotCacheIsMadeOnceAndSandboxesBehaveAlikeWithAndWithoutIt() throws Exception {
        SandboxImage image = SandboxImage.get();
        assertNull(image.aotNote(), "this JDK (25) makes AOT caches: " + image.aotNote());
        assertNotNull(image.aotCache());
        assertTrue(Files.size(image.aotCache()) > 1_000_000, "a cache with the execution engine's classes");
        assertEquals(image.aotCache(), SandboxImage.get().aotCache(), "made once per harness JVM");
        String code =
                "int sum = 0; for (int i = 1; i <= 100; i++) sum += i; System.out.print(\"sum=\" + sum); Integer.toHexString(sum)";
        Sandbox.CallHandler none = Sandbox.CallHandler.NONE;
        try (Sandbox with = Sandbox.start(CONFIG, image);
                Sandbox without = Sandbox.start(CONFIG, image.withoutAotCache())) {
            Sandbox.EvalResult a = with.evaluate(code, none), b = without.evaluate(code, none);
            assertEquals(new Sandbox.EvalResult("sum=5050", 8, "\"13ba\"", null, false), a);
            assertEquals(a, b);
        }
    }
}
