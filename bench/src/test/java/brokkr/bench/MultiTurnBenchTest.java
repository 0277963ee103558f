package brokkr.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.multiturn.MultiTurnData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The multi-turn bench times a whole corpus, measures forks, and refuses bad arguments (what it measures is not asserted). */
class MultiTurnBenchTest {
    @Test
    void timesEveryRecordOfGoldExec() {
        MultiTurnBench.CorpusTime t = MultiTurnBench.time(
                MultiTurnData.load(), shared("gold-exec.jsonl.gz"), MultiTurnBench.UPSTREAM.getFirst(), 1, 2);
        assertEquals(800, t.records());
        assertEquals(4625, t.calls());
        assertTrue(t.bestNanos() > 0);
        assertTrue(t.bestOneThreadNanos() > 0);
        assertEquals(2, t.threads());
    }

    @Test
    void forkCostOfATaskWorld() {
        MultiTurnBench.ForkCost f = MultiTurnBench.forkCost(MultiTurnData.load().task("multi_turn_long_context_0"), 50);
        assertEquals("multi_turn_long_context_0", f.taskId());
        assertEquals(50, f.forks());
        assertTrue(f.nanosPerFork() > 0 && f.buildNanos() > 0);
    }

    @Test
    void badArguments() {
        assertThrows(IllegalArgumentException.class, () -> MultiTurnBench.run(List.of("--fast"), System.out));
        assertThrows(IllegalArgumentException.class, () -> MultiTurnBench.run(List.of("--repeat", "0"), System.out));
        assertThrows(
                IllegalArgumentException.class,
                () -> MultiTurnBench.run(List.of("--tasks", "multi_turn_base_9999"), System.out));
        assertThrows(
                IllegalArgumentException.class, () -> MultiTurnBench.run(List.of("--dir", "/nonexistent"), System.out));
    }

    private static Path shared(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/multi_turn").resolve(file);
            if (Files.isRegularFile(s)) return s;
        }
        throw new IllegalStateException("no shared/conformance/bfcl/multi_turn/" + file);
    }
}
