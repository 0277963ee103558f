package brokkr.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.cli.Main;
import brokkr.data.UpstreamData;
import brokkr.data.testing.GitFixture;
import brokkr.experiment.Registry;
import brokkr.family.BenchmarkFamily;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A benchmark family added in test code only ({@link ExampleFamily}, one services line in this module's test
 * resources): its upstream revision, data pin, conformance corpus, result format and command all reach
 * {@code ./brokkr} with no edit of the CLI.
 */
class ExampleFamilyTest {
    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {}

    static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Main.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void versionNamesTheFamilysUpstreamRevision() {
        Run r = main("--version");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("example-upstream 0123456, "), r.out());
    }

    /** A family that states its revisions (to keep {@code --version} cheap) states those of its data sources. */
    @Test
    void everyFamilysRevisionsAreThoseOfItsData() {
        for (BenchmarkFamily f : BenchmarkFamily.load()) {
            assertEquals(
                    new BenchmarkFamily() {
                        @Override
                        public String name() {
                            return f.name();
                        }

                        @Override
                        public List<UpstreamData> upstreamData(Registry r) {
                            return f.upstreamData(r);
                        }
                    }.upstreamRevisions(Registry.process()),
                    f.upstreamRevisions(Registry.process()),
                    f.name());
        }
        assertEquals(
                List.of("example", "synthetic", "tau2", "bfcl"),
                BenchmarkFamily.load().stream().map(BenchmarkFamily::name).toList());
    }

    @Test
    void itsCommandIsListedAndRunsOnTheProcesssRegistry() {
        assertTrue(
                main("--help").out().contains("  example-tasks  list the example domain's tasks"),
                main("--help").out());
        Run r = main("example-tasks");
        assertEquals(0, r.code(), r.err());
        // The command was made with the process's one registry: the provider it lists is that registry's object.
        assertEquals(
                "example: 1, 2, 3 ("
                        + System.identityHashCode(Registry.process().benchmark("example")) + ")\n",
                r.out());
        Run bad = main("example-tasks", "x");
        assertEquals(2, bad.code());
        assertTrue(
                bad.err()
                        .startsWith(
                                "brokkr example-tasks: example-tasks takes no arguments\nusage: ./brokkr example-tasks"),
                bad.err());
    }

    /** {@code data fetch} fetches and checks the family's pin: the file the test commits verifies; another one differs. */
    @Test
    void dataFetchVerifiesItsPin() throws Exception {
        assertTrue(main("data", "--help")
                .out()
                .contains("example-upstream https://example.invalid/example-upstream.git at 0123456 (1 pinned files)"));
        GitFixture repo = GitFixture.init(tmp.resolve("repo"));
        String good = repo.commit(Map.of(ExampleFamily.PINNED_FILE, GitFixture.text(ExampleFamily.PINNED_TEXT)));
        Path dir = tmp.resolve("data");
        Run r = main(
                "data", "fetch", "example-upstream", "--from", repo.url(), "--commit", good, "--dir", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("  verified  counters.jsonl\n"), r.out());
        assertTrue(
                r.out()
                        .contains(
                                "example-upstream: 1 verified, 0 differing as documented, 0 differing unexpectedly, 0 missing"),
                r.out());
        assertTrue(r.out().contains("  export BROKKR_EXAMPLE_DATA=" + dir.resolve("example-upstream") + " "), r.out());
        assertEquals(ExampleFamily.PINNED_TEXT, Files.readString(dir.resolve("example-upstream/counters.jsonl")));

        String changed =
                repo.commit(Map.of(ExampleFamily.PINNED_FILE, GitFixture.text("{\"adds\": [5], \"counter\": 5}\n")));
        Run bad = main(
                "data",
                "fetch",
                "example-upstream",
                "--from",
                repo.url(),
                "--commit",
                changed,
                "--dir",
                dir.toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.out().contains("  DIFFERS   counters.jsonl\n            sha256 "), bad.out());
        assertTrue(bad.out().contains("pinned " + ExampleFamily.PINNED_SHA256), bad.out());
    }

    /** {@code conformance example}: the pinned corpus replays clean; a planted mismatch is found, named and counted. */
    @Test
    void conformanceFindsThePlantedMismatch() throws Exception {
        Path clean = Files.writeString(tmp.resolve("clean.jsonl"), ExampleFamily.PINNED_TEXT);
        Run ok = main("conformance", "example", "--corpus", clean.toString());
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertEquals("2 records, 0 mismatches\n", ok.out());

        Path planted = Files.writeString(
                tmp.resolve("planted.jsonl"), ExampleFamily.PINNED_TEXT + "{\"adds\": [2, 2], \"counter\": 5}\n");
        Run r = main("conformance", "example", "--corpus=" + planted);
        assertEquals(1, r.code(), r.out() + r.err());
        assertEquals(planted + ":3: counter 4, recorded 5\n3 records, 1 mismatches\n", r.out());

        assertTrue(main("conformance", "--help").out().contains("./brokkr conformance example --corpus FILE\n"));
        Run missing = main("conformance", "example");
        assertEquals(2, missing.code());
        assertTrue(missing.err().startsWith("brokkr conformance: missing --corpus\n"), missing.err());
        Run empty = main(
                "conformance",
                "example",
                "--corpus",
                Files.writeString(tmp.resolve("empty.jsonl"), "").toString());
        assertEquals(2, empty.code(), "a corpus that proves nothing is never a pass");
    }

    /** {@code experiment export --format example-csv}: the stored attempts of an example run, through the family's format. */
    @Test
    void experimentExportWritesItsFormat() throws Exception {
        Path spec = ExampleDomainTest.experimentFile(tmp);
        Path dir = tmp.resolve("run");
        Run run = main("experiment", "run", spec.toString(), "--dir", dir.toString(), "--no-progress");
        assertEquals(0, run.code(), run.err());
        assertTrue(main("experiment", "--help").out().contains("example-csv: the example cells as CSV"));
        Run r = main("experiment", "export", dir.toString(), "--format", "example-csv");
        assertEquals(0, r.code(), r.err());
        assertEquals("""
                task,candidate,repetition,reward
                1,counter,0,1.0
                1,idle,0,0.0
                2,counter,0,1.0
                2,idle,0,0.0
                3,counter,0,1.0
                3,idle,0,0.0
                """, r.out());
        Path file = tmp.resolve("out.csv");
        Run toFile = main("experiment", "export", dir.toString(), "--format", "example-csv", "--out", file.toString());
        assertEquals(0, toFile.code(), toFile.err());
        assertEquals("wrote " + file + " (example, 6 cells)\n", toFile.err());
        assertEquals(r.out().strip(), Files.readString(file));
        // The tau2 format finds nothing of its own in an example run.
        Run tau2 = main("experiment", "export", dir.toString(), "--format", "tau2");
        assertEquals(2, tau2.code());
        assertFalse(tau2.err().contains("example"), "refused with tau2's own words: " + tau2.err());
    }
}
