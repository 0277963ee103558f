package brokkr.domains.synthetic.parallel;

import brokkr.domains.synthetic.SyntheticTools;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The world of parallel discrimination: {@code tasks} independent id → value pairs, in the order the
 * prompt lists them. Seeded by the task count alone, so a size is the same task on every run.
 * Values are distinct, so finding every value in the answer means every lookup's result arrived.
 */
public record LookupTable(int tasks, PyDict values) {
    public static final int ID_LENGTH = 5;
    public static final int VALUE_LENGTH = 8;

    public static LookupTable of(int tasks) {
        if (tasks < 1) throw new IllegalArgumentException("tasks must be at least 1, got " + tasks);
        SplittableRandom random = new SplittableRandom(tasks * 1_000_003L);
        Set<String> seen = new HashSet<>();
        PyDict.Builder values = PyDict.builder();
        int n = 0;
        while (n < tasks) {
            String id = "id-" + SyntheticTools.token(random, ID_LENGTH);
            String value = SyntheticTools.token(random, VALUE_LENGTH);
            if (seen.add(id) & seen.add(value)) {
                values.put(id, value);
                n++;
            }
        }
        return new LookupTable(tasks, values.build());
    }

    public List<String> ids() {
        return new ArrayList<>(values.keys());
    }

    public List<String> valueList() {
        return values.asMap().values().stream().map(v -> v.asStr()).toList();
    }
}
