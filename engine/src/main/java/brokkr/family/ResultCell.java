package brokkr.family;

import brokkr.cost.PriceTable;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.experiment.ExperimentStore.Cell;
import brokkr.experiment.ExperimentStore.CellKey;
import brokkr.experiment.Scorecard;
import java.util.List;
import java.util.Objects;

/**
 * One cell of an experiment as a {@link ResultFormat} sees it: which benchmark, candidate, task and
 * repetition, the definitions it runs, and the attempt that stands for it: its completed attempt, else its
 * last infrastructure failure; null when it has not run. Exports receive the active cells of a store in
 * the spec's order ({@link StoredResults#read}); imports return cells whose attempts the caller stores.
 */
public record ResultCell(
        String benchmark,
        String candidate,
        String taskId,
        int repetition,
        EnvironmentDef environment,
        AgentDef agent,
        Attempt attempt) {
    public ResultCell {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(agent, "agent");
    }

    /**
     * The scorecard of {@code cells} (their attempts' scores, pass^k, costs priced at {@code prices}), as
     * {@code experiment show} computes it from the store: an export reports the very figures Brokkr shows.
     */
    public static Scorecard scorecard(List<ResultCell> cells, PriceTable prices) {
        List<Cell> keys = cells.stream()
                .map(c -> new Cell(
                        new CellKey(c.environment().id(), c.agent().id(), c.repetition()),
                        c.candidate(),
                        c.benchmark(),
                        c.taskId(),
                        true))
                .toList();
        List<Attempt> attempts =
                cells.stream().map(ResultCell::attempt).filter(Objects::nonNull).toList();
        return Scorecard.of(keys, attempts, prices);
    }
}
