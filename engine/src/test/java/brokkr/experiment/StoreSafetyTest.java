package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.testing.ReadOnlyDirectory;
import brokkr.value.PyDict;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store does when its file is not what it should be: inspection opens it read-only and
 * changes nothing (also on a read-only directory), a foreign SQLite file is refused and left alone, a
 * corrupt one is reported by name, and a store deleted or replaced under a running experiment fails
 * the run instead of letting it report results nobody can read back.
 */
class StoreSafetyTest {
    @TempDir
    Path tmp;

    private Path run(String name) {
        Path dir = tmp.resolve(name);
        var spec = ExperimentTest.spec(
                "all",
                2,
                2,
                0,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null)));
        Experiments.run(spec, dir, ExperimentTest.registry(3, new QuizBench.Models()));
        return dir;
    }

    /** Every file of {@code dir} with its size, modification time and content hash. */
    static Map<String, String> snapshot(Path dir) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                byte[] bytes = Files.readAllBytes(f);
                out.put(
                        f.getFileName().toString(),
                        bytes.length + " " + Files.getLastModifiedTime(f).toMillis() + " "
                                + HexFormat.of()
                                        .formatHex(MessageDigest.getInstance("SHA-256")
                                                .digest(bytes)));
            }
        }
        return out;
    }

    /** Everything inspection does: cells, attempts with their evidence, the scorecard, a transcript. */
    private static void inspect(Path dir) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(12, q.cells().size());
            assertEquals(12, q.attempts(true).size());
            assertEquals(12, Inspect.attempts(q, true).size());
            assertEquals(2, Scorecard.of(q).rows().size());
            assertTrue(Inspect.transcript(q, q.attempts(true).getFirst().id()).contains("[user] task q"));
        }
    }

    @Test
    void inspectionCreatesAndChangesNoFile() throws Exception {
        Path dir = run("x");
        Map<String, String> before = snapshot(dir);
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            WatchKey key = dir.register(
                    watch,
                    StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            inspect(dir);
            Thread.sleep(200);
            List<String> events = new ArrayList<>();
            for (WatchEvent<?> e : key.pollEvents()) events.add(e.kind().name() + " " + e.context());
            // A read-write open of a WAL database creates -wal and -shm beside it (and leaves them behind when
            // read-only).
            assertEquals(List.of(), events, "inspection touched the directory");
        }
        assertEquals(before, snapshot(dir));
    }

    @Test
    void inspectionBesideARunningWriterCreatesNoFileAndSeesItsCommits() throws Exception {
        Path dir = run("x");
        try (ExperimentStore writer = ExperimentStore.openForRun(dir)) {
            Set<String> names = snapshot(dir).keySet();
            assertTrue(
                    names.contains(ExperimentStore.FILE + "-wal") && names.contains(ExperimentStore.FILE + "-shm"),
                    names.toString());
            inspect(dir);
            assertEquals(names, snapshot(dir).keySet());
            assertEquals(12, writer.query().attempts(true).size());
        }
    }

    @Test
    void aReadOnlyDirectoryCanBeInspected() throws Exception {
        Path dir = run("x");
        Map<String, String> before = snapshot(dir);
        try (ReadOnlyDirectory ro = ReadOnlyDirectory.of(dir)) {
            inspect(dir);
            assertThrows(
                    IOException.class,
                    () -> Files.createFile(dir.resolve("probe")),
                    "the directory must really be read-only");
        }
        assertEquals(before, snapshot(dir));
    }

    @Test
    void aFileThatIsNotABrokkrStoreIsRefusedAndLeftAlone() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("foreign"));
        Path file = ExperimentStore.file(dir);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes(text TEXT)");
            s.execute("INSERT INTO notes VALUES('mine')");
        }
        byte[] before = Files.readAllBytes(file);
        var read = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentQuery.open(dir));
        assertTrue(read.getMessage().contains(file + " is not a Brokkr experiment store"), read.getMessage());
        var write = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentStore.openForRun(dir));
        assertTrue(write.getMessage().contains("is not a Brokkr experiment store"), write.getMessage());
        assertThrows(ExperimentStore.StoreException.class, () -> Experiments.scorecard(dir));
        assertArrayEquals(
                before, Files.readAllBytes(file), "the foreign file was changed (converted to WAL or given tables)");
        assertFalse(Files.exists(StoreConnection.sibling(file, "-wal")));

        Files.writeString(file, "these are my notes, not a database\n");
        var text = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentQuery.open(dir));
        assertTrue(text.getMessage().contains("not an SQLite database"), text.getMessage());
        assertThrows(ExperimentStore.StoreException.class, () -> ExperimentStore.openForRun(dir));
        assertEquals("these are my notes, not a database\n", Files.readString(file));
    }

    /** The root page of {@code table} and the page size, read before the file is damaged. */
    private static long pageOffset(Path file, String table) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
                Statement s = c.createStatement()) {
            int page, size;
            try (ResultSet r = s.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = '" + table + "'")) {
                r.next();
                page = r.getInt(1);
            }
            try (ResultSet r = s.executeQuery("PRAGMA page_size")) {
                r.next();
                size = r.getInt(1);
            }
            return (long) (page - 1) * size;
        }
    }

    @Test
    void aCorruptStoreIsReportedByNameOnOpenAndOnResume() throws Exception {
        Path dir = run("x");
        Path file = ExperimentStore.file(dir);
        long page = pageOffset(file, "attempt");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(page + 3); // the b-tree page header's cell count: one flipped byte
            int b = f.read();
            f.seek(page + 3);
            f.write(b ^ 0x40);
        }
        var read = assertThrows(ExperimentStore.StoreException.class, () -> ExperimentQuery.open(dir));
        assertTrue(read.getMessage().contains(file + " is corrupt (PRAGMA quick_check: "), read.getMessage());
        var spec = ExperimentTest.spec(
                "all",
                2,
                2,
                0,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null)));
        var resume = assertThrows(
                ExperimentStore.StoreException.class,
                () -> Experiments.run(spec, dir, ExperimentTest.registry(3, new QuizBench.Models())));
        assertTrue(resume.getMessage().contains(file + " is corrupt"), resume.getMessage());
    }

    /** A run slow enough to be interfered with: 40 cells of 40 ms, two at a time. */
    private static ExperimentSpec slowSpec() {
        var slow = new ExperimentSpec.CandidateSpec(
                "slow", new ModelRef("fake", "gold", PyDict.of("latency_ms", 40)), "tools", null);
        return new ExperimentSpec(
                "slow",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(slow),
                4,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(30),
                false);
    }

    /** Starts the slow run and returns once it has committed a few attempts. */
    private static CompletableFuture<Experiments.Result> startSlowRun(Path dir, List<Attempt> committed)
            throws Exception {
        var f = CompletableFuture.supplyAsync(() -> Experiments.run(
                slowSpec(), dir, ExperimentTest.registry(10, new QuizBench.Models()), new ProgressListener() {
                    @Override
                    public void attemptFinished(Attempt a) {
                        committed.add(a);
                    }
                }));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (committed.size() < 3 && !f.isDone() && System.nanoTime() < deadline) Thread.sleep(5);
        assertFalse(f.isDone(), "the run ended before it could be interfered with");
        return f;
    }

    @Test
    void aStoreDeletedDuringARunFailsTheRun() throws Exception {
        Path dir = tmp.resolve("deleted");
        List<Attempt> committed = new java.util.concurrent.CopyOnWriteArrayList<>();
        var f = startSlowRun(dir, committed);
        for (String suffix : List.of("", "-wal", "-shm"))
            Files.deleteIfExists(StoreConnection.sibling(ExperimentStore.file(dir), suffix));
        var e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof ExperimentStore.StoreException, String.valueOf(e.getCause()));
        assertTrue(
                e.getCause()
                        .getMessage()
                        .contains("the store was deleted or replaced while this run was writing to it"),
                e.getCause().getMessage());
        assertTrue(committed.size() < 40, "the run went on to the end: " + committed.size());
    }

    @Test
    void aStoreReplacedDuringARunFailsTheRun() throws Exception {
        Path dir = tmp.resolve("replaced");
        List<Attempt> committed = new java.util.concurrent.CopyOnWriteArrayList<>();
        var f = startSlowRun(dir, committed);
        Path file = ExperimentStore.file(dir);
        Path copy = dir.resolve("copy.db");
        Files.copy(file, copy);
        Files.move(copy, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        var e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertTrue(
                e.getCause().getMessage().contains("not the file this run opened"),
                e.getCause().getMessage());
    }
}
