package brokkr.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** bench startup's summary: per row the median and best of each mode, in the order rows were first measured. */
class StartupBenchTest {
    @Test
    void theTableHasARowPerMeasureWithMedianBestAndRatio() {
        List<StartupBench.Sample> samples = List.of(
                new StartupBench.Sample("--version: first output", true, 300),
                new StartupBench.Sample("--version: first output", false, 900),
                new StartupBench.Sample("--version: first output", true, 100),
                new StartupBench.Sample("--version: first output", false, 500),
                new StartupBench.Sample("--version: first output", true, 200),
                new StartupBench.Sample("--version: first output", false, 700),
                new StartupBench.Sample("kernel: first reply", true, 1000),
                new StartupBench.Sample("kernel: first reply", false, 3000));
        List<String> lines = StartupBench.table(samples).lines().toList();
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertEquals(
                List.of("aot", "median", "aot", "best", "none", "median", "none", "best", "x"),
                List.of(lines.get(0).trim().split("\\s+")));
        assertEquals(
                List.of("--version:", "first", "output", "200", "ms", "100", "ms", "700", "ms", "500", "ms", "3.50"),
                List.of(lines.get(1).trim().split("\\s+")));
        assertTrue(lines.get(2).startsWith("kernel: first reply"), lines.get(2));
        assertTrue(lines.get(2).trim().endsWith("3.00"), lines.get(2));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, StartupBench.median(new double[] {1, 2, 3, 10}));
        assertEquals(3, StartupBench.median(new double[] {1, 3, 10}));
    }
}
