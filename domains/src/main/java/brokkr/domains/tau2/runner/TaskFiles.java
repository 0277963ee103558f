package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Tau2Prompts;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files every tau2 domain reads besides its DB, as upstream's registry does: {@code policy.md},
 * {@code tasks.json}, {@code split_tasks.json} under {@code data/tau2/domains/<domain>/} and the user
 * simulator's guidelines, each checked against its pinned digest; with upstream's task and split lookups.
 */
public record TaskFiles(String domain, String policy, PyList tasks, PyDict splits, String userGuidelines) {
    private static final String GUIDELINES = "data/tau2/user_simulator/simulation_guidelines.md";

    /** Reads the domain's files from {@code data}, each checked against {@code digests} (by path). */
    public static TaskFiles read(Tau2Data data, String domain, Map<String, String> digests) {
        String dir = "data/tau2/domains/" + domain + "/";
        String policy = data.readText(dir + "policy.md", digests.get(dir + "policy.md"));
        PyList tasks = Json.read(data.read(dir + "tasks.json", digests.get(dir + "tasks.json")))
                .asList();
        PyDict splits = Json.read(data.read(dir + "split_tasks.json", digests.get(dir + "split_tasks.json")))
                .asDict();
        return new TaskFiles(
                domain,
                policy,
                tasks,
                splits,
                data.readText(GUIDELINES, Tau2Data.USER_SIMULATOR_DIGESTS.get(GUIDELINES)));
    }

    public PyDict task(String id) {
        for (Value t : tasks) if (t.asDict().get("id").asStr().equals(id)) return t.asDict();
        throw new IllegalArgumentException("no " + domain + " task " + id);
    }

    /** The tasks as the episode protocol reads them, in task-file order. */
    public Map<String, TaskSpec> taskSpecs() {
        Map<String, TaskSpec> out = new LinkedHashMap<>();
        for (Value t : tasks) {
            TaskSpec spec = TaskSpec.parse(t.asDict());
            out.put(spec.id(), spec);
        }
        return out;
    }

    /** Task ids of a split, in task-file order (upstream {@code get_tasks(task_split_name=...)}). */
    public List<String> split(String name) {
        Value ids = splits.get(name);
        if (ids == null)
            throw new IllegalArgumentException(
                    "Invalid task split name: " + name + ". Valid splits are: " + splits.keys());
        Set<String> wanted = new HashSet<>();
        for (Value v : ids.asList()) wanted.add(v.asStr());
        List<String> out = new ArrayList<>();
        for (Value t : tasks) {
            String id = t.asDict().get("id").asStr();
            if (wanted.contains(id)) out.add(id);
        }
        return out;
    }

    /** {@code LLMAgent.system_prompt}: the policy in upstream's instructions. */
    public String agentSystemPrompt() {
        return Tau2Prompts.agentSystemPrompt(policy);
    }

    /** {@code UserSimulator.system_prompt} of a task whose user has no tools. */
    public String userSystemPrompt(PyDict task) {
        return Tau2Prompts.userSystemPrompt(userGuidelines, task.get("user_scenario"));
    }
}
