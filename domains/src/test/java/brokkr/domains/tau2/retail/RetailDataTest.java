package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replayer's ability to see a difference (the refusal of changed data is Tau2DomainsDataTest's, for every domain). */
class RetailDataTest {

    /** The replayer reports a changed content, error flag or hash. */
    @Test
    void replayerSeesDifferences(@TempDir Path tmp) throws IOException {
        List<String> lines = Files.readAllLines(SharedDirs.conformance("retail", "fuzz-seed11.jsonl"))
                .subList(0, 3);
        String l0 =
                lines.get(0).replace("\\\"status\\\": \\\"return requested\\\"", "\\\"status\\\": \\\"delivered\\\"");
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
