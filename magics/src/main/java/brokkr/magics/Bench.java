package brokkr.magics;

import java.util.List;

/**
 * A benchmark domain as the magics see it: its summary, tasks, forkable tool worlds and scripted
 * candidates. Implementations adapt the domain modules' Java APIs ({@link Benches} lists them).
 */
public interface Bench {
    String name();

    DomainSummary summary();

    /** Every task, in the domain's order. */
    List<TaskRow> tasks();

    /** One task; an unknown id is a {@link MagicUsageException}. */
    TaskView task(String id);

    /** A fresh world for a task (or the domain's pristine world when {@code taskId} is null). */
    ToolWorld fork(String taskId);

    /** The scripted candidates {@link #run} knows. */
    List<String> candidates();

    /** One episode of a candidate on a task, graded. */
    RunView run(String candidate, String taskId);

    /** A row of {@code %tasks}. */
    record TaskRow(String id, List<String> splits, String scenario, String rewardBasis, int goldActions) {}
}
