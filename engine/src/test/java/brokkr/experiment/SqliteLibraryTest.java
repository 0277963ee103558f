package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sqlite-jdbc's native library is extracted once into the per-user cache and reused: a process killed
 * with SIGKILL (no shutdown hooks, so no deleteOnExit) leaves nothing in the temporary directory.
 */
class SqliteLibraryTest {
    @TempDir
    Path tmp;

    /** {@code Child DIR}: opens a store, says so, and waits to be killed. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            try (ExperimentStore s = ExperimentStore.openForRun(Path.of(args[0]))) {
                System.out.println("open " + System.getProperty("org.sqlite.lib.path"));
                System.out.flush();
                Thread.sleep(60_000);
            }
        }
    }

    private String runAndKill(Path cache, Path temp, Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-Dbrokkr.cache.dir=" + cache,
                        "-Djava.io.tmpdir=" + temp,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName(),
                        dir.toString())
                .redirectErrorStream(true);
        Process p = pb.start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            StringBuilder seen = new StringBuilder();
            while ((line = r.readLine()) != null && !line.startsWith("open "))
                seen.append(line).append('\n');
            assertTrue(line != null, "the child did not open the store: " + seen);
            p.destroyForcibly(); // SIGKILL: no shutdown hooks, no deleteOnExit
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            return line.substring("open ".length());
        }
    }

    private static List<Path> files(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void theNativeLibraryIsExtractedOnceAndKilledProcessesLeaveNothingInTmp() throws Exception {
        Path cache = Files.createDirectories(tmp.resolve("cache"));
        Path temp = Files.createDirectories(tmp.resolve("tmp"));
        String first = runAndKill(cache, temp, tmp.resolve("a"));
        List<Path> libs = files(cache);
        assertEquals(1, libs.size(), "one extracted library: " + libs);
        Path lib = libs.getFirst();
        assertEquals(Path.of(first), lib.getParent(), "the driver was pointed at the cache");
        assertTrue(lib.getFileName().toString().startsWith("libsqlitejdbc"), lib.toString());
        BasicFileAttributes before = Files.readAttributes(lib, BasicFileAttributes.class);
        assertEquals(List.of(), files(temp), "nothing left in java.io.tmpdir");

        String second = runAndKill(cache, temp, tmp.resolve("b"));
        assertEquals(first, second);
        assertEquals(List.of(lib), files(cache), "the second run reuses the extracted library");
        BasicFileAttributes after = Files.readAttributes(lib, BasicFileAttributes.class);
        assertEquals(before.fileKey(), after.fileKey(), "the same file, not a fresh copy");
        assertEquals(before.lastModifiedTime(), after.lastModifiedTime());
        assertEquals(List.of(), files(temp), "nothing left in java.io.tmpdir");
    }

    /** A cached library of the right size whose bytes differ (a damaged file) is replaced, not loaded. */
    @Test
    void aDamagedCachedLibraryIsReplaced() throws Exception {
        Path cache = Files.createDirectories(tmp.resolve("cache"));
        Path temp = Files.createDirectories(tmp.resolve("tmp"));
        runAndKill(cache, temp, tmp.resolve("a"));
        Path lib = files(cache).getFirst();
        byte[] good = Files.readAllBytes(lib);
        byte[] damaged = good.clone();
        damaged[damaged.length / 2] ^= 0x55;
        Files.write(lib, damaged);
        runAndKill(cache, temp, tmp.resolve("b"));
        assertEquals(List.of(lib), files(cache));
        assertTrue(Arrays.equals(good, Files.readAllBytes(lib)), "the damaged library was replaced by the driver's");
    }
}
