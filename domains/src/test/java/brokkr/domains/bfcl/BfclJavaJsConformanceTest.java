package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every verdict of the simple_java / simple_javascript seed-7 corpus
 * (../shared/conformance/bfcl/java-js/README.md), recorded from upstream's checker and its two type
 * converters, is reproduced: valid, error_type, the error texts and checker_return's error_type.
 */
class BfclJavaJsConformanceTest {
    @Test
    void seed7() {
        List<BfclConformance.Line> lines = BfclConformance.read(Shared.conformance("java-js/verdicts-seed7.jsonl.gz"));
        BfclConformance.Report r = BfclConformance.run(Shared.data(), lines, System.out, 30);
        assertEquals(2_490, r.checked());
        assertEquals(801, lines.stream().filter(BfclConformance.Line::valid).count());
        assertEquals(0, r.mismatches());
    }
}
