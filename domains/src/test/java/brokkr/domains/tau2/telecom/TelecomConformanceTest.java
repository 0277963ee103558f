package brokkr.domains.tau2.telecom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replays the recorded upstream behaviour (shared/conformance/tau2/telecom) against the transcription:
 * every call's content, error flag and both DB hashes; gold records also their env assertions and the
 * grader's gold environment.
 */
class TelecomConformanceTest {
    static TelecomDomain domain;

    @BeforeAll
    static void load() {
        domain = new TelecomDomain(new Tau2Data(SharedDirs.tau2Data()));
    }

    @Test
    void gold() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("telecom", "gold.jsonl"), System.out);
        assertEquals(114, r.sequences());
        assertEquals(516, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void fuzzSeed11() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("telecom", "fuzz-seed11.jsonl"), System.out);
        assertEquals(1000, r.sequences());
        assertEquals(6529, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void fuzzSeed11WithWorkers() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("telecom", "fuzz-seed11.jsonl"), null, 4);
        assertEquals(0, r.mismatches(), r.toString());
    }
}
