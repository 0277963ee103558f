package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every verdict of the seed-7 corpus recorded from upstream's checker is reproduced. */
class BfclConformanceTest {
    @Test
    void seed7() {
        List<BfclConformance.Line> lines = BfclConformance.read(Shared.conformance("verdicts-seed7.jsonl"));
        BfclConformance.Report r = BfclConformance.run(Shared.data(), lines, System.out, 30);
        assertEquals(58_044, r.checked());
        assertEquals(0, r.mismatches());
    }
}
