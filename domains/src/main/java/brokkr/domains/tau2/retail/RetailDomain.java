package brokkr.domains.tau2.retail;

import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.domains.tau2.runner.TaskFiles;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;

/**
 * tau2-bench's retail domain (src/tau2/domains/retail/environment.py): the pristine DB (loaded once,
 * shared by every environment since worlds are immutable), the policy, the tasks and splits, the agent
 * and user-simulator prompts, and the environment factory.
 */
public final class RetailDomain {
    public static final String DOMAIN = "retail";

    /** sha256 of the upstream files this transcription was proven against (upstream MANIFEST.md). */
    public static final Map<String, String> DIGESTS = Map.of(
            "data/tau2/domains/retail/db.json", "413a65160adbdb5fde0ffc0015c49b6d70250b10c18128de169b597af7766765",
            "data/tau2/domains/retail/policy.md", "2c9652afbce57d6e087768d37cda64d31c53d50b3e3225cfdb791bac66466467",
            "data/tau2/domains/retail/split_tasks.json",
                    "ed0580ec52575b63fbf76568af42490da6ee7783ecb4aa81af46961291358f20",
            "data/tau2/domains/retail/tasks.json", "8e03ebce7901bd6218e7a7dc3105faa9324091a68058f7fe61c65262868812e8");

    private final Tau2Data data;
    private final PyDict db;
    private final TaskFiles files;
    private final Tau2Toolkit toolkit;

    public RetailDomain(Tau2Data data) {
        this.data = data;
        this.db = RetailModel.db(Json.read(read("data/tau2/domains/retail/db.json")));
        this.files = TaskFiles.read(data, DOMAIN, DIGESTS);
        this.toolkit = RetailTools.toolkit();
    }

    /** Loads from the located data directory ({@link Tau2Data#locate()}). */
    public static RetailDomain load() {
        return new RetailDomain(Tau2Data.locate());
    }

    private byte[] read(String rel) {
        return data.read(rel, DIGESTS.get(rel));
    }

    public PyDict db() {
        return db;
    }

    public String policy() {
        return files.policy();
    }

    public PyList tasks() {
        return files.tasks();
    }

    public PyDict splits() {
        return files.splits();
    }

    public Tau2Toolkit toolkit() {
        return toolkit;
    }

    /** {@code get_environment()}: a fresh environment on the pristine DB. */
    public Tau2Environment environment() {
        return Tau2Environment.agentOnly(toolkit, db);
    }

    /**
     * An environment for a conformance record: pristine, or (with a task id) after that task's initial
     * state; no retail task has one ({@code initial_state} is null for all 114).
     */
    public Tau2Environment environment(String initTaskId) {
        if (initTaskId != null) {
            PyDict task = task(initTaskId);
            Value init = task.get("initial_state");
            if (init != null && !init.isNone()) {
                throw new UnsupportedOperationException(
                        "retail task " + initTaskId + " has an initial_state; not transcribed");
            }
        }
        return environment();
    }

    public Tau2Conformance.EnvironmentFactory factory() {
        return this::environment;
    }

    public PyDict task(String id) {
        return files.task(id);
    }

    /** {@code LLMAgent.system_prompt} for retail. */
    public String agentSystemPrompt() {
        return files.agentSystemPrompt();
    }

    /** {@code [t.openai_schema for t in env.get_tools()]}. */
    public List<Value> agentToolSchemas() {
        return toolkit.openaiSchemas();
    }

    /** {@code UserSimulator.system_prompt} of a task (retail users have no tools). */
    public String userSystemPrompt(PyDict task) {
        return files.userSystemPrompt(task);
    }

    /** Task ids of a split, in task-file order. */
    public List<String> split(String name) {
        return files.split(name);
    }
}
