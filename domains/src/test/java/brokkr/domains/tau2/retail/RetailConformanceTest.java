package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Replays the recorded upstream behaviour (shared/conformance/tau2/retail) against the transcription. */
class RetailConformanceTest {
    static RetailDomain domain;

    @BeforeAll
    static void load() {
        domain = new RetailDomain(new Tau2Data(SharedDirs.tau2Data()));
    }

    @Test
    void gold() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("retail", "gold.jsonl"), System.out);
        assertEquals(114, r.sequences());
        assertEquals(550, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void fuzzSeed11() {
        Tau2Conformance.Report r = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("retail", "fuzz-seed11.jsonl"), System.out);
        assertEquals(800, r.sequences());
        assertEquals(5644, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
        // warm JVM figure for the record
        Tau2Conformance.Report warm = Tau2Conformance.run(domain.factory(), SharedDirs.conformance("retail", "fuzz-seed11.jsonl"), null);
        System.out.println("fuzz-seed11 warm replay: " + warm);
        assertEquals(0, warm.mismatches());
    }
}
