package brokkr.domains.synthetic;

import brokkr.eval.Attempt;
import brokkr.eval.Exploration;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;

/**
 * What the two synthetic benchmarks' explorations share: a task is a size (any positive integer is a
 * valid id), and the table lists the sizes of the benchmark's own splits ({@code smoke}, {@code test} and
 * {@code standard}, the sizes the notebooks sweep), each with the splits it is in: the same splits
 * experiments, {@code %tasks --split} and the README name. Worlds are generated from the size, so there
 * are no data files.
 */
public abstract class SyntheticExploration implements Exploration {
    private final Map<String, List<Integer>> splits;
    private final String sizeMeaning;

    /**
     * @param splits      the benchmark's splits, in the order they are listed ({@link SyntheticBenchmark#splits()})
     * @param sizeMeaning what a task id counts, for the error on a bad id ({@code chain depths})
     */
    protected SyntheticExploration(Map<String, List<Integer>> splits, String sizeMeaning) {
        this.splits = splits;
        this.sizeMeaning = sizeMeaning;
    }

    /** The splits a size is in, in the splits' order. */
    protected List<String> splitsOf(int size) {
        return splits.entrySet().stream()
                .filter(e -> e.getValue().contains(size))
                .map(Map.Entry::getKey)
                .toList();
    }

    private List<Integer> sizes() {
        return splits.values().stream()
                .flatMap(List::stream)
                .distinct()
                .sorted()
                .toList();
    }

    protected abstract String name();

    protected abstract TaskRow row(int size);

    /** The size of the world {@code %fork} makes without a task. */
    protected int pristineSize() {
        return splits.getOrDefault("standard", sizes()).getFirst();
    }

    protected Summary summary(String description, String tool, int policyChars) {
        return new Summary(description, sizes().size(), splitCounts(), List.of(tool), policyChars, List.of());
    }

    @Override
    public List<TaskRow> tasks() {
        return sizes().stream().map(this::row).toList();
    }

    private Map<String, Integer> splitCounts() {
        Map<String, Integer> out = new java.util.LinkedHashMap<>();
        splits.forEach((k, v) -> out.put(k, v.size()));
        return out;
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
