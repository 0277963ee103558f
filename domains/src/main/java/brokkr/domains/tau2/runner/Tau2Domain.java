package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A tau2 domain as the episode protocol runs it: the environment, the tasks (file order), the splits,
 * upstream's agent system prompt and the per-task user-simulator prompt. A domain package builds it
 * ({@link Tau2Benchmark#load}); {@link Tau2Domains#load} finds it by name.
 */
public record Tau2Domain(
        String name,
        EpisodeEnvironment<Worlds> environment,
        Map<String, TaskSpec> tasks,
        Function<String, List<String>> splits,
        String agentSystemPrompt,
        Function<TaskSpec, String> userSystemPrompt) {

    /** The tasks of a split, in task-file order. */
    public List<TaskSpec> split(String split) {
        List<TaskSpec> out = new ArrayList<>();
        for (String id : splits.apply(split)) out.add(tasks.get(id));
        return out;
    }

    public TaskSpec task(String id) {
        TaskSpec t = tasks.get(id);
        if (t == null) throw new IllegalArgumentException("no " + name + " task '" + id + "'");
        return t;
    }
}
