package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code ./brokkr probe --domain wiki}: resolved through the provider's branching like tau2's, the record a run of the
 * wiki's first scripted candidate (reference: tau2's default gold is no wiki candidate), the cut after a tool call.
 */
class WikiProbeCommandTest {
    @Test
    void probesTheWikiAfterItsThirdToolCall() throws Exception {
        var r = ExperimentCommandTest.cli(
                "probe",
                "--domain",
                "wiki",
                "--task",
                "catalog",
                "--at",
                "3",
                "--candidate",
                "reference",
                "-n",
                "4",
                "--vs",
                "empty");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("wiki task catalog, tool call 3: reference, 4 samples"), r.out());
        assertTrue(r.out().contains("wiki task catalog, tool call 3: empty, 4 samples"), r.out());
        assertTrue(r.out().contains("gold next action: write_file("), r.out());
        assertTrue(r.out().contains("reference 4/4") || r.out().contains("matches gold: 4/4"), r.out());
        var past = ExperimentCommandTest.cli(
                "probe", "--domain", "wiki", "--task", "catalog", "--at", "11", "--candidate", "reference");
        assertEquals(2, past.code(), past.out());
        assertTrue(past.err().contains("has 10 tool call(s), not 11"), past.err());
    }
}
