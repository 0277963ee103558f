package brokkr.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** Issue 31, item 10: a bench run leaves no {@code jmh.lock} in the system's temporary directory. */
class JmhLockTest {

    @Test
    void aJmhRunLeavesNoLockFileInTheTemporaryDirectory(@TempDir Path systemTmp) {
        String before = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", systemTmp.toString());
        try {
            // JMH takes its lock before it looks for benchmarks: a run that matches none still takes it
            assertThrows(
                    NoBenchmarksException.class,
                    () -> WorldBench.runLeavingNoLock(new OptionsBuilder()
                            .include("NoSuchBenchmarkAnywhere")
                            .build()));
            assertFalse(Files.exists(systemTmp.resolve("jmh.lock")), "jmh.lock left in " + systemTmp);
            assertEquals(systemTmp.toString(), System.getProperty("java.io.tmpdir"));
        } finally {
            System.setProperty("java.io.tmpdir", before);
        }
    }
}
