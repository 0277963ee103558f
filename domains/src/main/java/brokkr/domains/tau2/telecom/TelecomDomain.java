package brokkr.domains.tau2.telecom;

import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.environment.Tau2EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Tau2Prompts;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * tau2-bench's telecom domain (src/tau2/domains/telecom/environment.py, manual policy, not solo): the
 * agent's {@code TelecomDB} ({@code db.toml}) and the user's phone and surroundings
 * ({@code user_db.toml}), both validated once and shared by every environment (worlds are immutable),
 * the two toolkits and {@code sync_tools}, the policy, the 114 tasks and their splits, the prompts, and
 * the environments: a task's initial state is its initialization actions replayed
 * ({@code Environment.set_state}).
 */
public final class TelecomDomain {
    public static final String DOMAIN = "telecom";

    /** sha256 of the upstream files this transcription was proven against (upstream MANIFEST.md). */
    public static final Map<String, String> DIGESTS = Map.of(
            "data/tau2/domains/telecom/db.toml", "562d647ef9d7df8df91eafd8ee76036e707c8f9e32aaedc4a7fde06975aea2c0",
            "data/tau2/domains/telecom/user_db.toml",
                    "4886107ea0c16f8e16d74bef91cfb557de61822afe9361f5a9b241806aea2e4c",
            "data/tau2/domains/telecom/main_policy.md",
                    "95943844a0cf11fdf0e2842b483b81d9f9338aa53235712ed131db075d086ed7",
            "data/tau2/domains/telecom/tech_support_manual.md",
                    "015a3ee49ec8c199c5e1a059c922081937b92cf3a5ea74fedbc4357816f389ba",
            "data/tau2/domains/telecom/tasks.json", "192a2c143b3b512c37c3775fdf6c5040c33717388620c38b140c731dc6153cd7",
            "data/tau2/domains/telecom/split_tasks.json",
                    "605b488bb9a6acb3c7f4505240a855fdc8681d09aadb16a8f38b2efcfc5c3aec");

    private static final String DIR = "data/tau2/domains/telecom/";

    private final Tau2Data data;
    private final PyDict db;
    private final PyDict userDb;
    private final String policy;
    private final PyList tasks;
    private final Map<String, PyDict> tasksById = new LinkedHashMap<>();
    private final PyDict splits;
    private final String userGuidelines;
    private final Tau2Toolkit toolkit;
    private final Tau2Toolkit userToolkit;
    private final List<ToolSpec> userToolSpecs;
    /**
     * A task's initial worlds by task and the process state before: {@code set_state} is a pure function of
     * the two, and sharing its result shares the hash memos of its DB nodes between the environments.
     */
    private final Map<List<Value>, Worlds> initialWorlds = new ConcurrentHashMap<>();

    public TelecomDomain(Tau2Data data) {
        this.data = data;
        this.db = TelecomModel.TELECOM_DB
                .validatePython(data.readToml(DIR + "db.toml", DIGESTS.get(DIR + "db.toml")))
                .asDict();
        this.userDb = TelecomModel.TELECOM_USER_DB
                .validatePython(data.readToml(DIR + "user_db.toml", DIGESTS.get(DIR + "user_db.toml")))
                .asDict();
        // get_environment(policy_type="manual"): the main policy and the manual tech-support policy, tagged
        this.policy = "<main_policy>\n" + text(DIR + "main_policy.md") + "\n</main_policy>\n<tech_support_policy>\n"
                + text(DIR + "tech_support_manual.md") + "\n</tech_support_policy>";
        this.tasks = Json.read(read(DIR + "tasks.json")).asList();
        for (Value t : tasks) tasksById.put(t.asDict().get("id").asStr(), t.asDict());
        this.splits = Json.read(read(DIR + "split_tasks.json")).asDict();
        String g = "data/tau2/user_simulator/simulation_guidelines_tools.md";
        this.userGuidelines = data.readText(g, Tau2Data.USER_SIMULATOR_DIGESTS.get(g));
        this.toolkit = TelecomTools.toolkit();
        this.userToolkit = TelecomUserTools.toolkit();
        this.userToolSpecs = Tau2EpisodeEnvironment.toolSpecs(userToolkit.openaiSchemas());
    }

    /** Loads from the located data directory ({@link Tau2Data#locate()}). */
    public static TelecomDomain load() {
        return new TelecomDomain(Tau2Data.locate());
    }

    private byte[] read(String rel) {
        return data.read(rel, DIGESTS.get(rel));
    }

    private String text(String rel) {
        return new String(read(rel), StandardCharsets.UTF_8);
    }

    public PyDict db() {
        return db;
    }

    public PyDict userDb() {
        return userDb;
    }

    public String policy() {
        return policy;
    }

    public PyList tasks() {
        return tasks;
    }

    public PyDict splits() {
        return splits;
    }

    public Tau2Toolkit toolkit() {
        return toolkit;
    }

    public Tau2Toolkit userToolkit() {
        return userToolkit;
    }

    /** The pristine worlds of a fresh process: both DBs as loaded, no bill-id draws, the class-level VPN details as defined. */
    public Worlds pristine() {
        return new Worlds(db, userDb, TelecomSession.FRESH.toValue());
    }

    /** {@code get_environment()} in a process whose state is {@code process} (null: a fresh process). */
    public Tau2Environment environment(Value process) {
        TelecomSession s = process == null ? TelecomSession.FRESH : TelecomSession.of(process);
        return new Tau2Environment(toolkit, userToolkit, TelecomSync.INSTANCE, new Worlds(db, userDb, s.toValue()));
    }

    /**
     * A fresh environment with a task's initial state ({@code set_state(initialization_data,
     * initialization_actions, [])}): each action through {@code run_env_function_call} (which syncs),
     * then one more {@code sync_tools()}; pristine when {@code initTaskId} is null.
     */
    public Tau2Environment environment(String initTaskId, Value process) {
        if (initTaskId == null) return environment(process);
        Value before = process == null ? TelecomSession.FRESH.toValue() : process;
        Worlds w = initialWorlds.computeIfAbsent(
                List.of(new PyStr(initTaskId), before),
                k -> setState(initTaskId, before).worlds());
        return new Tau2Environment(toolkit, userToolkit, TelecomSync.INSTANCE, w);
    }

    private Tau2Environment setState(String initTaskId, Value process) {
        Tau2Environment env = environment(process);
        PyDict init = initialState(initTaskId);
        if (init == null) return env;
        Value data = init.get("initialization_data");
        if (data != null && !data.isNone()) {
            throw new UnsupportedOperationException(
                    "telecom task " + initTaskId + " has initialization_data; not transcribed");
        }
        Value actions = init.get("initialization_actions");
        if (actions != null && !actions.isNone()) {
            for (Value a : actions.asList()) {
                PyDict call = a.asDict();
                env.runEnvFunctionCall(
                        call.get("env_type").asStr(),
                        call.get("func_name").asStr(),
                        call.get("arguments").asDict());
            }
        }
        env.syncTools();
        return env;
    }

    private PyDict initialState(String taskId) {
        Value init = task(taskId).get("initial_state");
        return init == null || init.isNone() ? null : init.asDict();
    }

    /**
     * Conformance environments: the records of a corpus share upstream's process, so a record starts with
     * the class-level VPN details as the earlier records' initialization actions left them (they alone
     * can call {@code break_vpn}) and the oracle's bill-id counter at zero.
     */
    public Tau2Conformance.EnvironmentFactory factory() {
        return new Tau2Conformance.EnvironmentFactory() {
            @Override
            public Tau2Environment create(String initTaskId) {
                return environment(initTaskId, null);
            }

            @Override
            public Tau2Environment create(String initTaskId, Value process) {
                return environment(initTaskId, process);
            }

            @Override
            public Value processAfter(Value before, String initTaskId) {
                TelecomSession s = before == null ? TelecomSession.FRESH : TelecomSession.of(before);
                if (initTaskId == null) return s.nextRecord().toValue();
                return TelecomSession.of(environment(initTaskId, s.toValue()).session())
                        .nextRecord()
                        .toValue();
            }
        };
    }

    public PyDict task(String id) {
        PyDict t = tasksById.get(id);
        if (t == null) throw new IllegalArgumentException("no telecom task " + id);
        return t;
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

    /**
     * The environment as the episode protocol drives it: the user has the 30 user tools, and each episode
     * runs in a fresh process (no bill ids drawn, the class-level VPN details as defined) before its
     * initialization actions; the grader's gold environment continues the episode's process.
     */
    public EpisodeEnvironment<Worlds> episodeEnvironment() {
        return new Tau2EpisodeEnvironment(
                toolkit,
                userToolkit,
                TelecomSync.INSTANCE,
                (task, process) -> environment(task.id(), process),
                task -> userToolSpecs,
                session -> TelecomSession.of(session).nextRecord().toValue());
    }

    /** {@code LLMAgent.system_prompt} for telecom. */
    public String agentSystemPrompt() {
        return Tau2Prompts.agentSystemPrompt(policy);
    }

    public List<Value> agentToolSchemas() {
        return toolkit.openaiSchemas();
    }

    /** {@code env.get_user_tools()}: every user tool (no telecom task restricts them). */
    public List<Value> userToolSchemas() {
        return userToolkit.openaiSchemas();
    }

    /** {@code UserSimulator.system_prompt} of a task: the guidelines for users with tools. */
    public String userSystemPrompt(PyDict task) {
        return Tau2Prompts.userSystemPrompt(userGuidelines, task.get("user_scenario"));
    }

    /**
     * Task ids of a split, in task-file order. Only upstream's 114 base tasks are here (upstream
     * MANIFEST.md): a split naming tasks that are not ({@code full}: 2,285 tasks of HEAD's
     * {@code tasks_full.json}; {@code small}) is refused, saying how many are missing.
     */
    public List<String> split(String name) {
        Value ids = splits.get(name);
        if (ids == null)
            throw new IllegalArgumentException(
                    "Invalid task split name: " + name + ". Valid splits are: " + splits.keys());
        Set<String> wanted = new HashSet<>();
        for (Value v : ids.asList()) wanted.add(v.asStr());
        List<String> out = new ArrayList<>();
        for (String id : tasksById.keySet()) if (wanted.contains(id)) out.add(id);
        if (out.size() < wanted.size()) {
            throw new IllegalArgumentException(
                    "telecom split '" + name + "' names " + wanted.size() + " tasks but only " + out.size()
                            + " of them are available: upstream's tasks_full.json (the full task set) is not present here, only the "
                            + tasks.size() + " base tasks of tasks.json (see upstream MANIFEST.md); available splits: "
                            + String.join(", ", availableSplits()));
        }
        return out;
    }

    /** The splits whose tasks are all present. */
    public List<String> availableSplits() {
        List<String> out = new ArrayList<>();
        for (String s : splits.keys()) {
            boolean all = true;
            for (Value v : splits.get(s).asList())
                if (!tasksById.containsKey(v.asStr())) {
                    all = false;
                    break;
                }
            if (all) out.add(s);
        }
        return out;
    }
}
