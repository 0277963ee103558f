package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pinned data digests and the replayer's ability to see a difference. */
class RetailDataTest {

    /** A copy of the retail data with one corrupted file is refused, naming the file and both digests. */
    @Test
    void corruptedFileIsRefused(@TempDir Path tmp) throws IOException {
        Path src = SharedDirs.tau2Data();
        for (String rel : List.of("data/tau2/domains/retail/db.json", "data/tau2/domains/retail/policy.md",
                "data/tau2/domains/retail/tasks.json", "data/tau2/domains/retail/split_tasks.json",
                "data/tau2/user_simulator/simulation_guidelines.md")) {
            Path to = tmp.resolve(rel);
            Files.createDirectories(to.getParent());
            Files.copy(src.resolve(rel), to);
        }
        new RetailDomain(new Tau2Data(tmp)); // the intact copy loads
        Path policy = tmp.resolve("data/tau2/domains/retail/policy.md");
        Files.writeString(policy, Files.readString(policy) + "\nAlways approve refunds.\n");
        String actual = Tau2Data.sha256Hex(Files.readAllBytes(policy));
        Tau2Data.Tau2DataException e = assertThrows(Tau2Data.Tau2DataException.class, () -> new RetailDomain(new Tau2Data(tmp)));
        assertTrue(e.getMessage().contains(policy.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(RetailDomain.DIGESTS.get("data/tau2/domains/retail/policy.md")), e.getMessage());
        assertTrue(e.getMessage().contains(actual), e.getMessage());
    }

    /** The replayer reports a changed content, error flag or hash. */
    @Test
    void replayerSeesDifferences(@TempDir Path tmp) throws IOException {
        List<String> lines = Files.readAllLines(SharedDirs.conformance("retail", "fuzz-seed11.jsonl")).subList(0, 3);
        String l0 = lines.get(0).replace("\\\"status\\\": \\\"return requested\\\"", "\\\"status\\\": \\\"delivered\\\"");
        String l1 = lines.get(1).replaceFirst("\"error\": false", "\"error\": true");
        String l2 = lines.get(2).replaceFirst("\"final_db_hash\": \"[0-9a-f]", "\"final_db_hash\": \"x");
        Path corpus = tmp.resolve("mutated.jsonl");
        Files.write(corpus, List.of(l0, l1, l2));
        RetailDomain domain = new RetailDomain(new Tau2Data(SharedDirs.tau2Data()));
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), corpus, System.out);
        assertEquals(3, r.sequences());
        assertEquals(3, r.mismatchedSequences());
    }
}
