package brokkr.domains.tau2.banking;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replays the recorded upstream behaviour (shared/conformance/tau2/banking_knowledge) against the
 * transcription: gold actions, the general fuzz corpus and the KB_search corpus (BM25 ranking, top-k
 * overrides, query edge cases), every content, error flag and both DB hashes.
 */
class BankingConformanceTest {
    static BankingDomain domain;

    @BeforeAll
    static void load() { domain = new BankingDomain(new Tau2Data(SharedDirs.tau2Data())); }

    private static Tau2Conformance.Report replay(String file, int threads) {
        return Tau2Conformance.run(domain.factory(), SharedDirs.conformance("banking_knowledge", file), System.out, threads);
    }

    @Test
    void gold() {
        Tau2Conformance.Report r = replay("gold.jsonl", 1);
        assertEquals(97, r.sequences());
        assertEquals(955, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void fuzzSeed11() {
        Tau2Conformance.Report r = replay("fuzz-seed11.jsonl", 2);
        assertEquals(1000, r.sequences());
        assertEquals(7085, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }

    @Test
    void kbSearchSeed11() {
        Tau2Conformance.Report r = replay("kb-search-seed11.jsonl", 2);
        assertEquals(340, r.sequences());
        assertEquals(1994, r.calls());
        assertEquals(0, r.mismatches(), r.toString());
    }
}
