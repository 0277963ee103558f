package brokkr.data;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirsTest {
    @Test
    void findsTheSharedTreeAboveTheWorkingDirectory() {
        Path p = DataDirs.locate(
                "tau2-bench data",
                "brokkr.test.none",
                "BROKKR_TEST_NONE",
                "upstream/tau2-bench",
                "data/tau2",
                Map.of());
        assertTrue(Files.isDirectory(p.resolve("data/tau2/domains/retail")), p.toString());
        assertEquals("tau2-bench", p.getFileName().toString());
    }

    @Test
    void propertyThenEnvironmentWin(@TempDir Path tmp) {
        assertEquals(
                tmp,
                DataDirs.locate(
                        "x", "brokkr.test.none", "X_DIR", "upstream/nowhere", null, Map.of("X_DIR", tmp.toString())));
        System.setProperty("brokkr.test.dir", tmp.resolve("p").toString());
        try {
            assertEquals(
                    tmp.resolve("p"),
                    DataDirs.locate(
                            "x",
                            "brokkr.test.dir",
                            "X_DIR",
                            "upstream/nowhere",
                            null,
                            Map.of("X_DIR", tmp.toString())));
        } finally {
            System.clearProperty("brokkr.test.dir");
        }
    }

    @Test
    void aMissingDirectoryIsAClearError() {
        DataDirs.NotFound e = assertThrows(
                DataDirs.NotFound.class,
                () -> DataDirs.locate(
                        "widget data",
                        "brokkr.test.none",
                        "WIDGET_DATA",
                        "upstream/no-such-benchmark",
                        null,
                        Map.of()));
        assertTrue(
                e.getMessage().startsWith("widget data not found: set -Dbrokkr.test.none=DIR or WIDGET_DATA=DIR"),
                e.getMessage());
    }

    @Test
    void theInstallationDirectoryIsSearchedToo(@TempDir Path tmp) throws Exception {
        Path home = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(tmp.resolve("shared/upstream/thing/marker"));
        System.setProperty("brokkr.home", home.toString());
        try {
            assertEquals(
                    tmp.resolve("shared/upstream/thing"),
                    DataDirs.findUpwards("upstream/thing", "marker").orElseThrow());
        } finally {
            System.clearProperty("brokkr.home");
        }
    }
}
