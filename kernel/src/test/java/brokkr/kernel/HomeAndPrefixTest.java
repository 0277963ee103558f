package brokkr.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 item 10: the kernel is installed where the Jupyter that will run it looks, and {@code ~} is the
 * home directory Jupyter and mvn see ({@code $HOME}), not Java's {@code user.home}.
 */
class HomeAndPrefixTest {
    @TempDir
    Path tmp;

    private static Path script(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    /** Before: the first python3 on PATH was asked (here one that reports another prefix). */
    @Test
    void sysPrefixIsThatOfTheJupyterExecutablesInterpreter() throws Exception {
        Path jupyterPython = script(tmp.resolve("jupyter-env/bin/python"), "#!/bin/sh\necho /opt/jupyter-prefix\n");
        script(tmp.resolve("bin/jupyter"), "#!" + jupyterPython + "\nimport sys\n");
        script(tmp.resolve("first/python3"), "#!/bin/sh\necho /opt/pyenv-prefix\n");
        String path = tmp.resolve("first") + ":" + tmp.resolve("bin");
        assertEquals(Path.of("/opt/jupyter-prefix"), KernelSpec.sysPrefix(Map.of("PATH", path)));
        // An active virtualenv still wins (its jupyter is the one on PATH), and without a jupyter python3 answers.
        assertEquals(Path.of("/venv"), KernelSpec.sysPrefix(Map.of("PATH", path, "VIRTUAL_ENV", "/venv")));
        assertEquals(
                Path.of("/opt/pyenv-prefix"),
                KernelSpec.sysPrefix(Map.of("PATH", tmp.resolve("first").toString())));
    }

    /** Before: Java's user.home, another directory wherever HOME is set for a run. */
    @Test
    void homeIsDollarHomeForTheUserKernelsDirAndTheMavenRepository() throws Exception {
        Path home = tmp.resolve("home");
        Map<String, String> env = Map.of("HOME", home.toString());
        if (!System.getProperty("os.name", "").toLowerCase().contains("mac"))
            assertEquals(
                    home.resolve(".local/share/jupyter/kernels"), KernelSpec.kernelsDir(new KernelSpec.User(), env));
        Properties system = new Properties();
        system.setProperty("user.home", "/somebody-else");
        MavenDependencies.SettingsFiles files = MavenDependencies.settingsFiles(env, system);
        assertEquals(home.resolve(".m2/settings.xml"), files.user());
        assertEquals(home.resolve(".m2/repository"), new MavenDependencies(files).localRepository());
        assertEquals(
                Path.of("/somebody-else/.m2/settings.xml"),
                MavenDependencies.settingsFiles(Map.of(), system).user());
    }

    /** Before: JLine's native library went to the system temporary directory (jlinenative-*.so left for all). */
    @Test
    void jlinesNativeLibraryGoesToAPrivateDirectory() throws Exception {
        String before = System.getProperty("jline.tmpdir");
        System.clearProperty("jline.tmpdir");
        try {
            Path dir = ReplCommand.privateNativeDir(
                    Map.of("XDG_CACHE_HOME", tmp.resolve("cache").toString()));
            assertEquals(tmp.resolve("cache/brokkr/jline"), dir);
            assertEquals(dir.toString(), System.getProperty("jline.tmpdir"));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        } finally {
            if (before == null) System.clearProperty("jline.tmpdir");
            else System.setProperty("jline.tmpdir", before);
        }
    }
}
