package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.conformance.Corpus;
import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replay with several workers reports the corpus's first bad line, whichever worker met a bad line first. */
class RetailCorpusErrorsTest {
    @Test
    void theFirstBadLineIsReportedWhateverTheThreadCount(@TempDir Path tmp) throws Exception {
        RetailDomain domain = new RetailDomain(new Tau2Data(SharedDirs.tau2Data()));
        List<String> lines = new ArrayList<>(Files.readAllLines(SharedDirs.conformance("retail", "fuzz-seed11.jsonl"))
                .subList(0, 60));
        lines.set(40, lines.get(40).replaceFirst("\"requestor\": ", "\"requestr\": "));
        lines.set(41, "{\"not\": \"a record\"}");
        lines.set(57, "[]");
        Path bad = tmp.resolve("bad.jsonl");
        Files.write(bad, lines);
        for (int threads : new int[] {1, 2, 4}) {
            String msg = assertThrows(
                            Corpus.CorpusException.class,
                            () -> Tau2Conformance.run(domain.factory(), bad, null, threads))
                    .getMessage();
            assertTrue(
                    msg.startsWith(bad + ":41: field 'calls[0].requestor' is missing"), threads + " threads: " + msg);
        }
    }
}
