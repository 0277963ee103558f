package brokkr.domains.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.synthetic.loop.LoopBenchmark;
import brokkr.domains.synthetic.parallel.ParallelBenchmark;
import brokkr.eval.Exploration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 31 item 12: a synthetic domain's splits are one list on every face. Before: the exploration
 * ({@code %domain load loop}, {@code %tasks --split}) knew only {@code standard}, experiments and the README
 * only {@code smoke} and {@code test}.
 */
class SyntheticSplitsTest {
    @Test
    void theExplorationListsTheBenchmarksSplitsWithTheirTasks() {
        for (SyntheticBenchmark b : List.of(new LoopBenchmark(), new ParallelBenchmark())) {
            Exploration x = b.exploration().orElseThrow();
            assertEquals(
                    Set.of("smoke", "test", "standard"),
                    x.summary().tasksPerSplit().keySet(),
                    b.name());
            for (String split : b.splits().keySet()) {
                List<String> listed = x.tasks().stream()
                        .filter(r -> r.splits().contains(split))
                        .map(Exploration.TaskRow::id)
                        .toList();
                assertEquals(b.tasks(split), listed, b.name() + " " + split);
                assertEquals(b.tasks(split).size(), x.summary().tasksPerSplit().get(split), b.name() + " " + split);
            }
        }
        assertEquals(List.of("5", "10"), new LoopBenchmark().tasks("smoke"));
        assertEquals(List.of("10", "20", "50", "100", "200"), new LoopBenchmark().tasks("standard"));
    }
}
