package brokkr.domains.bfcl.multiturn;

import java.util.List;
import java.util.Map;

/**
 * What {@code execute_multi_turn_func_call} needs of a task besides the calls: its id, the classes it
 * involves (in order), its {@code initial_config} (a Python dict of class name to that class's
 * scenario; classes not involved are ignored) and whether it is a long-context task.
 */
public record TaskSetup(
        String taskId, List<String> involvedClasses, Map<Object, Object> initialConfig, boolean longContext) {
    public TaskSetup {
        involvedClasses = List.copyOf(involvedClasses);
    }

    /**
     * Upstream's rule (eval_runner / base_handler): {@code "long_context" in c or "composite" in c} for
     * {@code c = test_entry_id.rsplit("_", 1)[0]}.
     */
    public static boolean isLongContext(String taskId) {
        int i = taskId.lastIndexOf('_');
        String c = i < 0 ? taskId : taskId.substring(0, i);
        return c.contains("long_context") || c.contains("composite");
    }
}
