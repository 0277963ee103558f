package brokkr.domains.synthetic;

import brokkr.eval.Attempt;
import brokkr.eval.Exploration;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;

/**
 * What the two synthetic benchmarks' explorations share: a task is a size (any positive integer is a
 * valid id), and the table lists the sizes the notebooks sweep as the split {@code standard}. Worlds
 * are generated from the size, so there are no data files.
 */
public abstract class SyntheticExploration implements Exploration {
    private final List<Integer> standard;
    private final String sizeMeaning;

    /** @param sizeMeaning what a task id counts, for the error on a bad id ({@code chain depths}) */
    protected SyntheticExploration(List<Integer> standard, String sizeMeaning) {
        this.standard = List.copyOf(standard);
        this.sizeMeaning = sizeMeaning;
    }

    protected abstract String name();

    protected abstract TaskRow row(int size);

    /** The size of the world {@code %fork} makes without a task. */
    protected int pristineSize() {
        return standard.getFirst();
    }

    protected Summary summary(String description, String tool, int policyChars) {
        return new Summary(
                description,
                standard.size(),
                Map.of("standard", standard.size()),
                List.of(tool),
                policyChars,
                List.of());
    }

    @Override
    public List<TaskRow> tasks() {
        return standard.stream().map(this::row).toList();
    }

    /** A task id as a size; IllegalArgumentException when it is not a positive integer. */
    protected int size(String id) {
        try {
            int n = Integer.parseInt(id.strip());
            if (n >= 1) return n;
        } catch (NumberFormatException ignored) {
            // falls through to the error below
        }
        throw new IllegalArgumentException(
                name() + " task ids are " + sizeMeaning + " (positive integers), got '" + id + "'");
    }

    protected int forkSize(String taskId) {
        return taskId == null ? pristineSize() : size(taskId);
    }

    /** An integer the protocol or the evaluator reported ({@code details}, else {@code output}). */
    protected static int reported(Attempt a, String key) {
        Value v = a.evidence().details().get(key);
        if (v == null) v = a.evidence().output().get(key);
        return (int) ((PyInt) v).longValue();
    }

    protected static boolean passed(Attempt a, String check) {
        return a.check(check).map(c -> c.passed()).orElse(false);
    }
}
