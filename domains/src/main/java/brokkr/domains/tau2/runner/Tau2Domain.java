package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.retail.RetailDomain;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2EpisodeEnvironment;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A tau2 domain as the episode protocol runs it: the environment, the tasks (file order), the splits,
 * upstream's agent system prompt and the per-task user-simulator prompt. Found by name through
 * {@link Tau2Domains#load}.
 */
public record Tau2Domain(String name, EpisodeEnvironment<Worlds> environment, Map<String, TaskSpec> tasks,
                         Function<String, List<String>> splits, String agentSystemPrompt,
                         Function<TaskSpec, String> userSystemPrompt) {

    /** The retail domain for episodes: users have no tools (upstream {@code tools=None}), no {@code sync_tools}. */
    public static Tau2Domain retail(RetailDomain d) {
        Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        for (Value t : d.tasks()) {
            TaskSpec spec = TaskSpec.parse(t.asDict());
            tasks.put(spec.id(), spec);
        }
        EpisodeEnvironment<Worlds> env = new Tau2EpisodeEnvironment(d.toolkit(), null, null,
                task -> d.environment(task.id()), task -> List.of());
        return new Tau2Domain(RetailDomain.DOMAIN, env, tasks, d::split, d.agentSystemPrompt(), task -> d.userSystemPrompt(task.raw()));
    }

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
