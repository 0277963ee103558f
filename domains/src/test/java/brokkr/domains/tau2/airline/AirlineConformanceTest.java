package brokkr.domains.tau2.airline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Replays the recorded upstream behaviour (shared/conformance/tau2/airline) against the transcription. */
class AirlineConformanceTest {
    static AirlineDomain domain;

    @BeforeAll
    static void load() {
        domain = new AirlineDomain(new Tau2Data(SharedDirs.tau2Data()));
    }

    @Test
    void gold() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("airline", "gold.jsonl"), System.out);
        assertEquals(50, r.sequences());
        assertEquals(142, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void fuzzSeed11() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("airline", "fuzz-seed11.jsonl"), System.out);
        assertEquals(800, r.sequences());
        assertEquals(5487, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }
}
