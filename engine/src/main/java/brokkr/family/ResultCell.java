package brokkr.family;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
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
}
