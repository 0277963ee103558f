package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.data.DataDirs;
import brokkr.data.UpstreamData;
import brokkr.data.testing.GitFixture;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.retail.RetailDomain;
import brokkr.domains.tau2.runner.Tau2Domains;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./brokkr data fetch} against local git repositories holding the pinned files at their
 * upstream paths (copied from ../shared/upstream in the test; no network): every file verified, the
 * data usable from where it was put, and a file that differs reported per file, as documented or not.
 */
class DataCommandTest {
    @TempDir
    Path tmp;

    static ExperimentCommandTest.Out cli(String... args) {
        return ExperimentCommandTest.cli(args);
    }

    /** A repository with every pinned file of {@code source} at its repository path, copied from shared/upstream/NAME. */
    private GitFixture upstream(UpstreamData source) throws Exception {
        Path shared = DataDirs.findUpwards("upstream/" + source.name(), null).orElseThrow();
        GitFixture repo = GitFixture.init(tmp.resolve("repo-" + source.name()));
        List<String> paths = new ArrayList<>();
        for (String p : source.pins().keySet()) paths.add(source.repositoryPath(p));
        repo.commitCopies(shared, paths);
        return repo;
    }

    @Test
    void tau2BenchIsFetchedVerifiedAndUsableFromWhereItWasPut() throws Exception {
        UpstreamData tau2 = Tau2Domains.upstream();
        assertTrue(tau2.pins().keySet().containsAll(RetailDomain.DIGESTS.keySet())
                && tau2.pins().keySet().containsAll(Tau2Data.USER_SIMULATOR_DIGESTS.keySet()));
        GitFixture repo = upstream(tau2);
        String head = repo.commit(Map.of("src/tau2/not_data.py", GitFixture.text("print()\n")));
        Path dir = tmp.resolve("data");
        var r = cli("data", "fetch", "tau2-bench", "--from", repo.url(), "--commit", head, "--dir", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        int n = tau2.pins().size();
        assertTrue(
                r.out()
                        .contains("tau2-bench: " + n
                                + " verified, 0 differing as documented, 0 differing unexpectedly, 0 missing; in "
                                + dir.resolve("tau2-bench")),
                r.out());
        assertTrue(r.out().contains("  verified  data/tau2/domains/retail/db.json\n"), r.out());
        assertTrue(r.out().contains("  export BROKKR_TAU2_DATA=" + dir.resolve("tau2-bench") + " "), r.out());
        assertTrue(Files.notExists(dir.resolve("tau2-bench/src")), "only the pinned files are checked out");
        // Brokkr reads the fetched copy as it reads shared/upstream: every digest checked on the way in.
        RetailDomain retail = new RetailDomain(new Tau2Data(dir.resolve("tau2-bench")));
        assertTrue(retail.policy().length() > 1000);
    }

    /**
     * Upstream's own airline db.json is not the reconstruction Brokkr pins: it is reported as differing
     * as documented (exit 0, the reason given); a file differing without a note, or missing, exits 1.
     */
    @Test
    void aFileThatDiffersIsReportedPerFileDocumentedOrNot() throws Exception {
        GitFixture repo = upstream(Tau2Domains.upstream());
        String airline = repo.commit(Map.of("data/tau2/domains/airline/db.json", GitFixture.text("{\"flights\": {}}")));
        Path dir = tmp.resolve("data");
        var r = cli("data", "fetch", "tau2-bench", "--from", repo.url(), "--commit", airline, "--dir", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("  DIFFERS   data/tau2/domains/airline/db.json\n            sha256 "), r.out());
        assertTrue(
                r.out()
                        .contains(
                                "pinned 0eaaaba983972a5b14c762b8b0754ce92a1c3443e288010b0d16a5e5f59b3e16\n"
                                        + "            expected: the pinned airline db.json is a reconstruction from tau-bench v1"),
                r.out());
        assertTrue(
                r.out().contains(" verified, 1 differing as documented, 0 differing unexpectedly, 0 missing"), r.out());

        Map<String, byte[]> edits = new java.util.HashMap<>();
        edits.put("data/tau2/domains/retail/policy.md", GitFixture.text("# another policy\n"));
        edits.put("data/tau2/user_simulator/simulation_guidelines.md", null); // deleted
        String policy = repo.commit(edits);
        var bad = cli("data", "fetch", "tau2-bench", "--from", repo.url(), "--commit", policy, "--dir", dir.toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.out().contains("  DIFFERS   data/tau2/domains/retail/policy.md\n"), bad.out());
        assertTrue(
                bad.out().contains("  MISSING   data/tau2/user_simulator/simulation_guidelines.md (not in the commit)"),
                bad.out());
        assertTrue(bad.out().contains("1 differing as documented, 1 differing unexpectedly, 1 missing"), bad.out());
        assertTrue(bad.out().contains("Brokkr refuses them when it reads them"), bad.out());
    }

    @Test
    void gorillaIsFetchedIntoItsDataFolderAndLoads() throws Exception {
        UpstreamData gorilla = BfclData.upstream();
        assertEquals("berkeley-function-call-leaderboard/bfcl_eval/data", gorilla.dataRoot());
        GitFixture repo = upstream(gorilla);
        String head = repo.commit(Map.of());
        Path dir = tmp.resolve("data");
        var r = cli("data", "fetch", "gorilla", "--from", repo.url(), "--commit", head, "--dir", dir.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        Path data = dir.resolve("gorilla/berkeley-function-call-leaderboard/bfcl_eval/data");
        assertTrue(
                r.out().contains("gorilla: " + gorilla.pins().size() + " verified, 0 differing as documented"),
                r.out());
        assertTrue(r.out().contains("  export BROKKR_BFCL_DATA=" + data + " "), r.out());
        assertEquals(3641, BfclData.load(data).all().size());
    }

    @Test
    void badArgumentsAreUsageErrorsAndGitFailuresExitOne() throws Exception {
        assertEquals(2, cli("data").code());
        assertEquals(2, cli("data", "pull").code());
        assertEquals(2, cli("data", "fetch", "nowhere").code());
        assertEquals(2, cli("data", "fetch", "--from", "file:///x").code(), "--from needs one source");
        assertEquals(2, cli("data", "fetch", "gorilla", "--commit", "not-hex").code());
        assertEquals(2, cli("data", "fetch", "gorilla", "--dir").code());
        var missing = cli(
                "data",
                "fetch",
                "gorilla",
                "--from",
                tmp.resolve("no-repo").toUri().toString(),
                "--dir",
                tmp.resolve("d").toString());
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("brokkr data: gorilla: git fetch"), missing.err());
        String help = cli("data", "--help").out();
        assertTrue(help.contains("tau2-bench  https://github.com/sierra-research/tau2-bench at a2c0247"), help);
        assertTrue(help.contains("gorilla     https://github.com/ShishirPatil/gorilla at 6ea5797"), help);
        assertTrue(help.contains("airline db.json is a reconstruction"), help);
    }
    /** {@code --from '--upload-pack=CMD'} would make git run CMD: a usage error, exit 2, and nothing runs. */
    @Test
    void aFromThatLooksLikeAnOptionIsAUsageError() throws Exception {
        Path marker = tmp.resolve("ran");
        var o = cli(
                "data",
                "fetch",
                "tau2-bench",
                "--dir",
                tmp.resolve("d").toString(),
                "--from",
                "--upload-pack=touch " + marker);
        assertEquals(2, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("--from"), o.err());
        assertFalse(Files.exists(marker), "git ran the command");
    }
}
