package brokkr.kernel;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class KernelSpecTest {
    static { System.setProperty("java.awt.headless", "true"); }

    @TempDir Path tmp;

    @Test void installWritesAStandardKernelspecAndUninstallRemovesIt() throws Exception {
        KernelSpec.Location where = new KernelSpec.Prefix(tmp);
        Path dir = KernelSpec.install(where, Map.of());
        assertEquals(tmp.resolve("share/jupyter/kernels/brokkr"), dir);
        PyDict spec = Json.parse(Files.readString(dir.resolve("kernel.json"))).asDict();
        assertEquals("Brokkr (Java 25)", spec.get("display_name").asStr());
        assertEquals("java", spec.get("language").asStr());
        assertEquals("message", spec.get("interrupt_mode").asStr());
        List<String> argv = spec.get("argv").asList().stream().map(Value::asStr).toList();
        assertTrue(Files.isExecutable(Path.of(argv.getFirst())), argv.getFirst());
        assertEquals(List.of("brokkr.cli.Main", "kernel", "run", "--connection-file", "{connection_file}"),
                argv.subList(argv.size() - 5, argv.size()));
        String cp = argv.get(argv.indexOf("-cp") + 1);
        assertTrue(Arrays.stream(cp.split(java.io.File.pathSeparator)).allMatch(e -> Path.of(e).isAbsolute()), cp);
        for (String logo : List.of("logo-32x32.png", "logo-64x64.png")) {
            byte[] png = Files.readAllBytes(dir.resolve(logo));
            assertEquals((byte) 0x89, png[0]);
            assertEquals('P', png[1]);
        }
        assertTrue(KernelSpec.uninstall(where, Map.of()));
        assertFalse(Files.exists(dir));
        assertFalse(KernelSpec.uninstall(where, Map.of()));
    }

    @Test void locations() throws Exception {
        assertEquals(tmp.resolve("data/kernels"), KernelSpec.kernelsDir(new KernelSpec.User(), Map.of("JUPYTER_DATA_DIR", tmp.resolve("data").toString())));
        assertEquals(tmp.resolve("venv/share/jupyter/kernels"), KernelSpec.kernelsDir(new KernelSpec.SysPrefix(), Map.of("VIRTUAL_ENV", tmp.resolve("venv").toString())));
        assertEquals(tmp.resolve("p/share/jupyter/kernels"), KernelSpec.kernelsDir(new KernelSpec.Prefix(tmp.resolve("p")), Map.of()));
    }
}
