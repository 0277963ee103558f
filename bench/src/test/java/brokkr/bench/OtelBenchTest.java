package brokkr.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ./brokkr bench otel} at a small size: the three modes, gold 1.0 under each, spans made only when on. */
class OtelBenchTest {
    @Test
    void theThreeModesRunGoldAndOnlyTracingOnMakesSpans() throws Exception {
        var r = BenchCommandTest.main("bench", "otel", "--tasks", "2", "--rounds", "1");
        assertEquals(0, r.code(), r.err());
        List<String> rows =
                r.out().lines().filter(l -> l.matches("^(off|on).*x$")).toList();
        assertEquals(3, rows.size(), r.out());
        assertTrue(r.out().startsWith("tau2-retail, 2 gold episodes"), r.out());
        // off makes no spans; on makes the episode's tree (invoke_agent + chat + execute_tool spans), content the same
        // count
        String[] off = rows.get(0).trim().split("\\s{2,}"),
                on = rows.get(1).trim().split("\\s{2,}"),
                content = rows.get(2).trim().split("\\s{2,}");
        assertEquals("0", off[2], rows.get(0));
        long spans = Long.parseLong(on[2]);
        assertTrue(spans > 2 * 3, "at least an agent, a chat and a tool span per episode: " + rows.get(1));
        assertEquals(spans, Long.parseLong(content[2]), "content capture adds attributes, not spans");
        assertEquals("1.000x", off[3]);
    }

    @Test
    void badArgumentsAreUsageErrors() {
        var r = BenchCommandTest.main("bench", "otel", "--tasks", "0");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("brokkr bench: --tasks needs a positive integer, got '0'"), r.err());
    }
}
