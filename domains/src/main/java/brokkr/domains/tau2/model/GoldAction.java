package brokkr.domains.tau2.model;

import brokkr.value.PyDict;
import java.util.List;

/**
 * Upstream {@code Action} ({@code src/tau2/data_model/tasks.py}): one step of a task's reference
 * trajectory. {@code compareArgs} null means "compare all the predicted call's arguments" (upstream
 * {@code compare_args=None}); an empty list means "the name alone decides".
 */
public record GoldAction(
        String actionId, Requestor requestor, String name, PyDict arguments, List<String> compareArgs, String info) {
    public GoldAction {
        compareArgs = compareArgs == null ? null : List.copyOf(compareArgs);
    }
}
