package brokkr.data;

import static brokkr.data.testing.GitFixture.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.data.testing.GitFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetching pinned files with git from a local repository: only the pinned commit's pinned paths, each file reported as it is. */
class DataFetchTest {
    @TempDir
    Path tmp;

    static String sha(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static final byte[] A = text("alpha\n"),
            B = text("{\"b\": 2}\n"),
            C = text("gamma"),
            RECON = text("rebuilt");

    /** Pins under data/: a.txt, odd names (brackets, parentheses, a star), a reconstructed file and one the commit lacks. */
    private static UpstreamData source(String url, String commit) throws Exception {
        Map<String, UpstreamData.Pin> pins = new LinkedHashMap<>();
        pins.put("a.txt", UpstreamData.Pin.of(sha(A)));
        pins.put("docs/doc_(general)_[1]*.json", UpstreamData.Pin.of(sha(B)));
        pins.put("c.txt", UpstreamData.Pin.of(sha(C)));
        pins.put("db.json", new UpstreamData.Pin(sha(RECON), "a reconstruction"));
        pins.put("gone.txt", UpstreamData.Pin.of(sha(text("never committed"))));
        return new UpstreamData("fixture", url, commit, "pkg/data", "FIXTURE_DATA", "fixture.data", pins);
    }

    @Test
    void fetchesThePinnedPathsOfOneCommitAndReportsEachFile() throws Exception {
        GitFixture repo = GitFixture.init(tmp.resolve("upstream"));
        String first = repo.commit(Map.of(
                "pkg/data/a.txt",
                A,
                "pkg/data/docs/doc_(general)_[1]*.json",
                B,
                "pkg/data/c.txt",
                text("changed"),
                "pkg/data/db.json",
                text("upstream's own"),
                "pkg/data/unpinned.txt",
                text("not wanted"),
                "src/code.py",
                text("print()")));
        repo.commit(Map.of("pkg/data/a.txt", text("a later edit")));
        Path into = tmp.resolve("out");
        DataFetch.Result r = DataFetch.fetch(source(repo.url(), first), into, null, null);

        Map<String, DataFetch.Status> status = new LinkedHashMap<>();
        for (DataFetch.FileResult f : r.files()) status.put(f.path(), f.status());
        assertEquals(
                Map.of(
                        "pkg/data/a.txt",
                        DataFetch.Status.VERIFIED,
                        "pkg/data/docs/doc_(general)_[1]*.json",
                        DataFetch.Status.VERIFIED,
                        "pkg/data/c.txt",
                        DataFetch.Status.DIFFERS,
                        "pkg/data/db.json",
                        DataFetch.Status.DIFFERS,
                        "pkg/data/gone.txt",
                        DataFetch.Status.MISSING),
                status);
        DataFetch.FileResult db = r.files().stream()
                .filter(f -> f.path().endsWith("db.json"))
                .findFirst()
                .orElseThrow();
        assertTrue(db.expected(), "the reconstructed pin documents its difference");
        assertEquals(sha(text("upstream's own")), db.actual());
        assertFalse(r.files().stream()
                .filter(f -> f.path().endsWith("c.txt"))
                .findFirst()
                .orElseThrow()
                .expected());
        assertFalse(r.ok(), "c.txt differs without a note and gone.txt is missing");
        assertEquals(into.resolve("fixture/pkg/data"), r.dataDir());

        // The pinned commit's files (not the later edit), only the pinned paths, no git folder, no scratch left.
        assertArrayEquals(A, Files.readAllBytes(r.dataDir().resolve("a.txt")));
        assertArrayEquals(B, Files.readAllBytes(r.dataDir().resolve("docs/doc_(general)_[1]*.json")));
        try (Stream<Path> all = Files.walk(into)) {
            List<String> files = all.filter(Files::isRegularFile)
                    .map(p -> into.relativize(p).toString())
                    .sorted()
                    .toList();
            assertEquals(
                    List.of(
                            "fixture/pkg/data/a.txt",
                            "fixture/pkg/data/c.txt",
                            "fixture/pkg/data/db.json",
                            "fixture/pkg/data/docs/doc_(general)_[1]*.json"),
                    files);
        }
        try (Stream<Path> top = Files.list(into)) {
            assertEquals(
                    List.of("fixture"), top.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void aFetchOfEveryPinnedFileIsOkAndReplacesWhatWasThere() throws Exception {
        GitFixture repo = GitFixture.init(tmp.resolve("upstream"));
        String good = repo.commit(Map.of(
                "pkg/data/a.txt",
                A,
                "pkg/data/docs/doc_(general)_[1]*.json",
                B,
                "pkg/data/c.txt",
                C,
                "pkg/data/db.json",
                RECON,
                "pkg/data/gone.txt",
                text("never committed")));
        Path into = tmp.resolve("out");
        Files.createDirectories(into.resolve("fixture/pkg/data"));
        Files.writeString(into.resolve("fixture/pkg/data/a.txt"), "stale");
        DataFetch.Result r = DataFetch.fetch(source("file:///nowhere", "0000000"), into, repo.url(), good);
        assertTrue(r.ok(), r.files().toString());
        assertEquals(5, r.count(DataFetch.Status.VERIFIED));
        assertEquals(repo.url(), r.url());
        assertArrayEquals(A, Files.readAllBytes(into.resolve("fixture/pkg/data/a.txt")));
    }

    @Test
    void gitsOwnErrorIsReportedForAnUnreachableRepositoryOrAnUnknownCommit() throws Exception {
        GitFixture repo = GitFixture.init(tmp.resolve("upstream"));
        repo.commit(Map.of("pkg/data/a.txt", A));
        var noRepo = assertThrows(
                DataFetch.FetchException.class,
                () -> DataFetch.fetch(
                        source(tmp.resolve("missing").toUri().toString(), "abcdef1"), tmp.resolve("o1"), null, null));
        assertTrue(
                noRepo.getMessage().startsWith("git fetch ")
                        && noRepo.getMessage().contains("failed"),
                noRepo.getMessage());
        var noCommit = assertThrows(
                DataFetch.FetchException.class,
                () -> DataFetch.fetch(
                        source(repo.url(), "0123456789abcdef0123456789abcdef01234567"), tmp.resolve("o2"), null, null));
        assertTrue(noCommit.getMessage().contains("failed (exit"), noCommit.getMessage());
        try (Stream<Path> left = Files.list(tmp.resolve("o2"))) {
            assertEquals(List.of(), left.toList(), "no scratch folder is left behind");
        }
    }

    @Test
    void pinsArePathsInsideTheDataFolder() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new UpstreamData(
                        "x", "u", "c", "", "E", "p", Map.of("../etc/passwd", UpstreamData.Pin.of("0".repeat(64)))));
        assertThrows(IllegalArgumentException.class, () -> new UpstreamData("x", "u", "c", "/abs", "E", "p", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> UpstreamData.Pin.of("not-a-digest"));
        assertEquals("\\[x\\]\\*\\?\\!\\#(y)", DataFetch.escapePattern("[x]*?!#(y)"));
    }
    /** A commit whose pinned path is a symbolic link (to a file, or a folder on the way): refused, never followed or moved. */
    @Test
    void pinnedPathsThatAreSymbolicLinksAreRefusedNeverFollowedOrMoved() throws Exception {
        Path secret = tmp.resolve("secret.txt");
        Files.write(secret, A); // the pinned digest: a followed link would even verify
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.write(elsewhere.resolve("doc_(general)_[1]*.json"), B);
        GitFixture repo = GitFixture.init(tmp.resolve("upstream"));
        Files.createDirectories(repo.dir().resolve("pkg/data"));
        Files.createSymbolicLink(repo.dir().resolve("pkg/data/a.txt"), secret.toAbsolutePath());
        Files.createSymbolicLink(repo.dir().resolve("pkg/data/docs"), elsewhere.toAbsolutePath());
        String commit = repo.commit(Map.of("pkg/data/c.txt", C));
        Path into = tmp.resolve("out");
        DataFetch.Result r = DataFetch.fetch(source(repo.url(), commit), into, null, null);
        Map<String, DataFetch.Status> status = new LinkedHashMap<>();
        for (DataFetch.FileResult f : r.files()) status.put(f.path(), f.status());
        assertEquals(DataFetch.Status.REFUSED, status.get("pkg/data/a.txt"), status.toString());
        // A linked folder on the way: git's sparse checkout does not check it out, and were it there, it is refused.
        assertTrue(
                Set.of(DataFetch.Status.REFUSED, DataFetch.Status.MISSING)
                        .contains(status.get("pkg/data/docs/doc_(general)_[1]*.json")),
                status.toString());
        assertEquals(DataFetch.Status.VERIFIED, status.get("pkg/data/c.txt"));
        assertFalse(r.ok());
        assertFalse(Files.exists(r.dataDir().resolve("a.txt"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(r.dataDir().resolve("docs"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertArrayEquals(A, Files.readAllBytes(secret), "the link's target is untouched");
        assertTrue(Files.exists(elsewhere.resolve("doc_(general)_[1]*.json")));
    }

    /** A source that git would read as an option ({@code --upload-pack=CMD} runs CMD) is refused; git never sees it. */
    @Test
    void aSourceThatLooksLikeAnOptionIsRefused() throws Exception {
        Path marker = tmp.resolve("ran");
        assertThrows(
                IllegalArgumentException.class,
                () -> DataFetch.fetch(
                        source("file:///nowhere", "0000000"),
                        tmp.resolve("out"),
                        "--upload-pack=touch " + marker,
                        null));
        assertThrows(
                IllegalArgumentException.class,
                () -> DataFetch.fetch(
                        source("file:///nowhere", "0000000"),
                        tmp.resolve("out"),
                        null,
                        "--upload-pack=touch " + marker));
        assertFalse(Files.exists(marker), "git ran the command");
    }
}
