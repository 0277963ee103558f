package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
            for (String c :
                    List.of("SandboxAgent", "SandboxWire", "SandboxBridge", "MiniJson", "TypeCheck", "TypeText")) {
                assertTrue(names.contains("brokkr/sandbox/" + c + ".class"), c + " in " + names);
            }
            for (String n : names) {
                if (n.equals("module-info.class")) continue;
                assertTrue(
                        n.matches(
                                "brokkr/sandbox/(SandboxAgent|SandboxWire|SandboxBridge|MiniJson|TypeCheck|TypeText)(\\$[^/]*)?\\.class"),
                        "only sandbox classes: " + n);
            }
        }
    }

    @Test
    void theJarIsAModuleThatExportsTheBridgeAndOpensNothing() throws Exception {
        // The descriptor is what makes the agent's private state unreachable from snippets (SandboxTest's attacks):
        // an open module, or a package opened to anyone, would let setAccessible through.
        var descriptor = java.lang.module.ModuleFinder.of(SandboxImage.get().jar())
                .find(SandboxImage.MODULE)
                .orElseThrow()
                .descriptor();
        assertFalse(descriptor.isOpen());
        assertTrue(descriptor.opens().isEmpty(), String.valueOf(descriptor.opens()));
        assertEquals(
                List.of("brokkr.sandbox"),
                descriptor.exports().stream()
                        .filter(e -> !e.isQualified())
                        .map(java.lang.module.ModuleDescriptor.Exports::source)
                        .toList());
        assertEquals(1, descriptor.exports().size());
    }

    @Test
    void aSnippetSeesTheModulesOfAddModulesAllDefault() throws Exception {
        // The agent's module is linked into the runtime and its descriptor requires the default roots, so the boot
        // layer is resolved ahead (SandboxImage.moduleInfo): it must hold exactly the modules a JVM of that runtime
        // resolves for --add-modules ALL-DEFAULT (and what the JDK binds as services with them: jdk.localedata,
        // jdk.charsets, jdk.zipfs...) and the agent's module: the launch before, the agent's jar on the module path.
        assumeTrue(SandboxRuntime.get().linksAgent(), "this JDK could not link the sandbox runtime");
        Process p = new ProcessBuilder(
                        SandboxRuntime.get().java().toString(),
                        "-XX:+UnlockDiagnosticVMOptions",
                        "--show-module-resolution",
                        "--add-modules",
                        "ALL-DEFAULT",
                        "-version")
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        java.util.SortedSet<String> expected = new java.util.TreeSet<>(List.of("java.base", SandboxImage.MODULE));
        for (String line : new String(p.getInputStream().readAllBytes()).split("\n")) {
            String[] w = line.strip().split(" ");
            if (w.length >= 3 && w[0].equals("root")) expected.add(w[1]);
            else if (w.length >= 4 && (w[1].equals("requires") || w[1].equals("binds"))) expected.add(w[2]);
        }
        p.waitFor();
        assertTrue(expected.size() > 30 && expected.contains("java.sql"), String.valueOf(expected));
        try (Sandbox s = Sandbox.start(CONFIG)) {
            Sandbox.EvalResult r = s.evaluate(
                    "ModuleLayer.boot().modules().stream().map(Module::getName).sorted()"
                            + ".collect(java.util.stream.Collectors.joining(\",\"))",
                    Sandbox.CallHandler.NONE);
            assertEquals('"' + String.join(",", expected) + '"', r.value(), String.valueOf(r.error()));
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
    void aDamagedCachedJarIsRebuilt() throws Exception {
        Path dir = Files.createTempDirectory("brokkr-image-test-");
        String aot = System.getProperty("brokkr.sandbox.aot");
        System.setProperty("brokkr.sandbox.aot", "false"); // the jar is what is tested; no training run
        try {
            SandboxImage made = SandboxImage.makeIn(dir);
            byte[] good = Files.readAllBytes(made.jar());
            byte[] damaged = good.clone();
            damaged[damaged.length / 2] ^= 0x5a; // one byte, inside a class's compressed bytes
            Files.write(made.jar(), damaged);
            Files.writeString(dir.resolve("sandbox.aot"), "a stale cache of the damaged jar");
            SandboxImage again = SandboxImage.makeIn(dir);
            assertArrayEquals(good, Files.readAllBytes(again.jar()), "rebuilt from the harness's classes");
            assertFalse(Files.exists(dir.resolve("sandbox.aot")), "the cache of another jar is dropped");
            try (Sandbox s = Sandbox.start(CONFIG, again)) {
                assertEquals("2", s.evaluate("1 + 1", Sandbox.CallHandler.NONE).value());
            }
        } finally {
            if (aot == null) System.clearProperty("brokkr.sandbox.aot");
            else System.setProperty("brokkr.sandbox.aot", aot);
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
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
