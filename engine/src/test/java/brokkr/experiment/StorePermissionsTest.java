package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 12: transcripts are private data, so a new store and its WAL files are the owner's only. */
class StorePermissionsTest {
    @TempDir
    Path tmp;

    @Test
    void aNewStoreAndItsWalFilesAreReadableByTheirOwnerOnly() throws Exception {
        Path dir = tmp.resolve("exp");
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            for (String name :
                    new String[] {ExperimentStore.FILE, ExperimentStore.FILE + "-wal", ExperimentStore.FILE + "-shm"}) {
                Path f = dir.resolve(name);
                if (!Files.exists(f)) continue;
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), name);
            }
        }
        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(ExperimentStore.FILE))));
    }
}
