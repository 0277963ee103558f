package brokkr.domains.tau2.airline;

import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.environment.Tau2EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.TaskFiles;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.List;
import java.util.Map;

/**
 * tau2-bench's airline domain (src/tau2/domains/airline/environment.py): the pristine DB (loaded and
 * validated once, shared by every environment since worlds are immutable), the policy, the tasks and
 * splits, the agent and user-simulator prompts, and the environment factory. Users have no tools and
 * there is no {@code sync_tools}.
 */
public final class AirlineDomain {
    public static final String DOMAIN = "airline";

    /**
     * sha256 of the upstream files this transcription was proven against (upstream MANIFEST.md; db.json
     * is the reconstruction documented there).
     */
    public static final Map<String, String> DIGESTS = Map.of(
            "data/tau2/domains/airline/db.json", "0eaaaba983972a5b14c762b8b0754ce92a1c3443e288010b0d16a5e5f59b3e16",
            "data/tau2/domains/airline/policy.md", "10dc0525421521208be39cee235bba84a16e2bcba9899eb93d92cd81d2f62fc4",
            "data/tau2/domains/airline/split_tasks.json",
                    "b22ced4d9a9850ac9aea31c53bdcb6d6009058140bd9acc7db37c1d36222ba8b",
            "data/tau2/domains/airline/tasks.json", "ccd8ba737b4cc371415af70151187788f728d6108d0916e73bb4317b40542052");

    /**
     * Pinned files that are not upstream's own (shared/upstream/tau2-bench/MANIFEST.md): upstream's
     * airline db.json (blob c6a1e817) was not available when the domain was transcribed, so the pin is
     * of a reconstruction from tau-bench v1 that reproduces every gold trajectory's reward.
     */
    public static final Map<String, String> RECONSTRUCTED = Map.of(
            "data/tau2/domains/airline/db.json",
            "the pinned airline db.json is a reconstruction from tau-bench v1 (upstream's file at the pinned commit was not available"
                    + " when the domain was transcribed; see shared/upstream/tau2-bench/MANIFEST.md): upstream's own file differs from it,"
                    + " and the airline domain refuses it (its hashes and conformance corpus are of the reconstruction)");

    private final Tau2Data data;
    private final PyDict db;
    private final TaskFiles files;
    private final Tau2Toolkit toolkit;

    public AirlineDomain(Tau2Data data) {
        this.data = data;
        this.db = AirlineModel.db(Json.read(read("data/tau2/domains/airline/db.json")));
        this.files = TaskFiles.read(data, DOMAIN, DIGESTS);
        this.toolkit = AirlineTools.toolkit();
    }

    /** Loads from the located data directory ({@link Tau2Data#locate()}). */
    public static AirlineDomain load() {
        return new AirlineDomain(Tau2Data.locate());
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
     * state; no airline task has one ({@code initial_state} is null for all 50).
     */
    public Tau2Environment environment(String initTaskId) {
        if (initTaskId != null) {
            Value init = task(initTaskId).get("initial_state");
            if (init != null && !init.isNone()) {
                throw new UnsupportedOperationException(
                        "airline task " + initTaskId + " has an initial_state; not transcribed");
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

    /** The tasks as the episode protocol reads them, in task-file order. */
    public Map<String, TaskSpec> taskSpecs() {
        return files.taskSpecs();
    }

    /** The environment as the episode protocol drives it: users have no tools, no {@code sync_tools}. */
    public EpisodeEnvironment<Worlds> episodeEnvironment() {
        return new Tau2EpisodeEnvironment(toolkit, null, null, task -> environment(task.id()), task -> List.of());
    }

    /** {@code LLMAgent.system_prompt} for airline. */
    public String agentSystemPrompt() {
        return files.agentSystemPrompt();
    }

    /** {@code [t.openai_schema for t in env.get_tools()]}. */
    public List<Value> agentToolSchemas() {
        return toolkit.openaiSchemas();
    }

    /** {@code UserSimulator.system_prompt} of a task (airline users have no tools). */
    public String userSystemPrompt(PyDict task) {
        return files.userSystemPrompt(task);
    }

    /** Task ids of a split, in task-file order. */
    public List<String> split(String name) {
        return files.split(name);
    }
}
