package brokkr.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop bench runs both series and prints one row per depth (what it measures is not asserted). */
class LoopBenchTest {
    @Test
    void printsARowPerDepthForBothSeries() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(
                0, LoopBench.run(List.of("--depths", "20,40"), new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(
                4,
                out.lines()
                        .filter(l -> l.matches("\\s+(20|40)\\s+\\d+\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+"))
                        .count(),
                out);
        assertTrue(out.contains("agent loop") && out.contains("evaluation path"), out);
        assertThrows(IllegalArgumentException.class, () -> LoopBench.run(List.of("--depths", "ten"), System.out));
        assertThrows(IllegalArgumentException.class, () -> LoopBench.run(List.of("--fast"), System.out));
    }
}
