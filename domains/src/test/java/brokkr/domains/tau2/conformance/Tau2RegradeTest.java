package brokkr.domains.tau2.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.runner.Tau2Evaluate;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Upstream's own trajectories, graded by upstream's evaluator (shared/conformance/tau2, "Whole episodes"),
 * re-graded by Brokkr's grader: every RewardInfo component and every judge request must be equal.
 */
class Tau2RegradeTest {

    private static Tau2Regrade.Report evaluate(Path file, ByteArrayOutputStream log) {
        return Tau2Regrade.evaluate(
                file, Tau2Evaluate::domain, null, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail", "airline", "telecom", "banking_knowledge"})
    void gradedCorpusRegradesWithoutMismatch(String domain) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Tau2Regrade.Report r = evaluate(SharedDirs.conformance(domain, "graded-seed11.jsonl.gz"), log);
        int expected = switch (domain) {
            case "retail" -> 910;
            case "airline" -> 386;
            case "telecom" -> 1026;
            default -> 776;
        };
        assertEquals(expected, r.simulations());
        assertEquals(0, r.mismatches(), log.toString(StandardCharsets.UTF_8));
        assertEquals(expected + " simulations, 0 mismatches", r.summaryLine());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "retail/results-gold.json",
                "retail/results-mixed.json",
                "airline/results-mixed.json",
                "telecom/results-mixed.json",
                "telecom/results-gold.json",
                "airline/results-gold.json",
                "banking_knowledge/results-gold.json",
                "banking_knowledge/results-mixed.json"
            })
    void resultsFilesRegradeWithoutMismatch(String file) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Tau2Regrade.Report r =
                evaluate(SharedDirs.shared().resolve("conformance/tau2/results").resolve(file), log);
        assertTrue(r.simulations() > 0);
        assertEquals(0, r.mismatches(), log.toString(StandardCharsets.UTF_8));
    }
}
