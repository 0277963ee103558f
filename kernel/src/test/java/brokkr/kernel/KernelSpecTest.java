package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelSpecTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    @TempDir
    Path tmp;

    @Test
    void installWritesAStandardKernelspecAndUninstallRemovesIt() throws Exception {
        KernelSpec.Location where = new KernelSpec.Prefix(tmp);
        Path dir = KernelSpec.install(where, Map.of());
        assertEquals(tmp.resolve("share/jupyter/kernels/brokkr"), dir);
        PyDict spec = Json.parse(Files.readString(dir.resolve("kernel.json"))).asDict();
        assertEquals("Brokkr (Java 25)", spec.get("display_name").asStr());
        assertEquals("java", spec.get("language").asStr());
        assertEquals("message", spec.get("interrupt_mode").asStr());
        List<String> argv = spec.get("argv").asList().stream().map(Value::asStr).toList();
        assertTrue(Files.isExecutable(Path.of(argv.getFirst())), argv.getFirst());
        assertEquals(
                List.of("brokkr.cli.Main", "kernel", "run", "--connection-file", "{connection_file}"),
                argv.subList(argv.size() - 5, argv.size()));
        String cp = argv.get(argv.indexOf("-cp") + 1);
        assertTrue(
                Arrays.stream(cp.split(File.pathSeparator))
                        .allMatch(e -> Path.of(e).isAbsolute()),
                cp);
        for (String logo : List.of("logo-32x32.png", "logo-64x64.png")) {
            byte[] png = Files.readAllBytes(dir.resolve(logo));
            assertEquals((byte) 0x89, png[0]);
            assertEquals('P', png[1]);
        }
        assertTrue(KernelSpec.uninstall(where, Map.of()));
        assertFalse(Files.exists(dir));
        assertFalse(KernelSpec.uninstall(where, Map.of()));
    }

    /**
     * kernel.json names no file outside its own directory but java (so {@code mvn clean} and a cleared Maven
     * cache leave it working), and passes every flag the launcher passes.
     */
    @Test
    void theKernelspecIsSelfContainedAndHasTheLauncherFlags() throws Exception {
        Path dir = KernelSpec.install(new KernelSpec.Prefix(tmp), Map.of());
        List<String> argv =
                Json.parse(Files.readString(dir.resolve("kernel.json"))).asDict().get("argv").asList().stream()
                        .map(Value::asStr)
                        .toList();
        List<String> cp = Arrays.asList(argv.get(argv.indexOf("-cp") + 1).split(File.pathSeparator));
        assertFalse(cp.isEmpty());
        for (String e : cp) {
            assertTrue(Path.of(e).startsWith(dir.resolve("lib")), e + " is outside the kernelspec");
            assertTrue(Files.isRegularFile(Path.of(e)) && e.endsWith(".jar"), e);
        }
        List<String> ours = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.isBlank() && Files.exists(Path.of(e)))
                .toList();
        assertEquals(ours.size(), cp.size(), "one copy per class path entry");
        assertTrue(cp.stream().anyMatch(e -> e.contains("sqlite-jdbc")), cp.toString());
        assertTrue(
                cp.stream()
                        .anyMatch(e ->
                                Path.of(e).getFileName().toString().matches("(brokkr-kernel.*|kernel-classes)\\.jar")),
                cp.toString());

        String launcher = Files.readString(Path.of("..", "brokkr"));
        List<String> launcherFlags = launcher.lines()
                .filter(l -> l.contains("exec \"$JAVA_HOME/bin/java\""))
                .flatMap(l -> Arrays.stream(l.split("\\s+")))
                .filter(w -> w.startsWith("--"))
                .toList();
        assertFalse(launcherFlags.isEmpty(), "no flags found on the launcher's exec line");
        assertEquals(KernelSpec.LAUNCHER_FLAGS, launcherFlags);
        assertTrue(argv.containsAll(launcherFlags), argv.toString());

        // a reinstall replaces the copy and leaves nothing stale
        Path stale = Files.writeString(dir.resolve("lib/stale.jar"), "x");
        KernelSpec.install(new KernelSpec.Prefix(tmp), Map.of());
        assertFalse(Files.exists(stale));
    }

    @Test
    void aClassesDirectoryIsCopiedAsAJarOfItsFiles() throws Exception {
        Path classes = Files.createDirectories(tmp.resolve("mod/target/classes/p"));
        Files.writeString(classes.resolve("A.class"), "bytes");
        Path jarFile = Files.writeString(tmp.resolve("dep-1.0.jar"), "jar bytes");
        Path other = Files.createDirectories(tmp.resolve("other")).resolve("dep-1.0.jar");
        Files.writeString(other, "other bytes");
        List<Path> out = KernelSpec.copyClassPath(
                List.of(tmp.resolve("mod/target/classes"), jarFile, other, tmp.resolve("missing.jar")),
                tmp.resolve("spec/lib"));
        assertEquals(
                List.of("mod-classes.jar", "dep-1.0.jar", "2-dep-1.0.jar"),
                out.stream().map(p -> p.getFileName().toString()).toList());
        try (var jar = new JarFile(out.getFirst().toFile())) {
            assertEquals(
                    "bytes",
                    new String(jar.getInputStream(jar.getEntry("p/A.class")).readAllBytes()));
        }
        assertEquals("other bytes", Files.readString(out.get(2)));
    }

    @Test
    void locations() throws Exception {
        assertEquals(
                tmp.resolve("data/kernels"),
                KernelSpec.kernelsDir(
                        new KernelSpec.User(),
                        Map.of("JUPYTER_DATA_DIR", tmp.resolve("data").toString())));
        assertEquals(
                tmp.resolve("venv/share/jupyter/kernels"),
                KernelSpec.kernelsDir(
                        new KernelSpec.SysPrefix(),
                        Map.of("VIRTUAL_ENV", tmp.resolve("venv").toString())));
        assertEquals(
                tmp.resolve("p/share/jupyter/kernels"),
                KernelSpec.kernelsDir(new KernelSpec.Prefix(tmp.resolve("p")), Map.of()));
    }
}
