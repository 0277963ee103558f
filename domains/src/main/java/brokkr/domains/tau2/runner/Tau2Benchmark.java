package brokkr.domains.tau2.runner;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.data.UpstreamData;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.evaluator.Tau2Grader;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.eval.AgentDef;
import brokkr.eval.AgentInterface;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branching;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Evidence;
import brokkr.eval.Exploration;
import brokkr.eval.InterruptedInteraction;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.Rejudging;
import brokkr.eval.TrustTier;
import brokkr.eval.WorldReplay;
import brokkr.eval.WorldSetup;
import brokkr.provider.Providers;
import brokkr.value.PyDict;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A tau2-bench domain on the evaluation path, benchmark {@code tau2-<name>}. Each domain package has
 * one subclass ({@code retail.RetailBenchmark}, ...) that loads its data, registered by one line of
 * {@code META-INF/services/brokkr.eval.BenchmarkProvider}; {@link Tau2Domains} finds them there.
 *
 * <ul>
 *   <li><b>World setup</b> ({@link Tau2Fork}): the task's initial world (upstream {@code set_state}) goes
 *       into the run's fork; the evidence is its {@code get_db_hash()}.</li>
 *   <li><b>Protocol</b> ({@link Tau2Protocol}): upstream's half-duplex conversation ({@link Orchestrator}) with the candidate
 *       as agent and the environment's {@code user} model as user simulator (upstream's per-task
 *       prompt). It returns the transcript (every message and tool call with its result) and the
 *       termination reason, never the grade. The orchestrator records a failed model call as an
 *       {@code infrastructure_error} termination; here that is rethrown as an
 *       {@link InterruptedInteraction} (an {@link InfrastructureFailure} keeping the transcript so far),
 *       so the attempt is excluded from metrics rather than graded.</li>
 *   <li><b>Evaluator</b> ({@link Tau2Evaluator}): upstream's grading ({@link Tau2Grader}) of the recorded transcript against the
 *       observed final world, as one check per reason to lose: {@code setup_verified},
 *       {@code terminated_normally} and each reward component in the task's basis ({@code db},
 *       {@code env_assertion}, {@code action}, {@code nl_assertion}, {@code communicate}, upstream's
 *       order). Components outside the basis cannot lose a task, so they are not checks; they stay in
 *       the details (the full grade) as upstream keeps them as diagnostics.</li>
 * </ul>
 *
 * <p>Gold actions and NL assertions stay here: the {@link EnvironmentDef} names the task id, the
 * upstream revision, the digests of every upstream file the domain read, the user simulator and the
 * judge, and the orchestrator's settings, its options (upstream defaults: {@code max_steps} 200,
 * {@code max_errors} 10, {@code enforce_communication_protocol} false, {@code run_seed} 300; and
 * {@code agent_stop_token}, false; checked by {@link Tau2Options}).
 *
 * <p>Scripted models ({@code provider: scripted}, {@link Tau2ScriptedModels}): candidates {@code gold} (replays the task's gold
 * actions, states its communicate info, stops) and {@code stop} (stops at once); user {@code user},
 * the scripted customer (the default when an experiment names no {@code user}); judge
 * {@code known-verdict} (the default when it names no {@code judge}), which knows the verdict only for
 * the scripted candidates (gold: every assertion met; stop: none met; recorded with trust tier
 * {@link TrustTier#SELF_REPORTED}). A model candidate needs a user model (opposite the scripted user
 * its cells fail as harness errors instead of producing meaningless scores) and a judge model (with
 * the known-verdict judge, its cells on tasks with NL assertions fail the same way).
 *
 * <p>Model candidates and model users on OpenAI-compatible providers get upstream's per-trial seed
 * ({@link TrialSeeds}: repetition r is trial r) as the request's {@code seed}; the judge gets none.
 * Upstream's other request settings are model options ({@link #upstreamModel}).
 */
public abstract class Tau2Benchmark implements BenchmarkProvider {
    public static final String GOLD = "gold";
    public static final String STOP = "stop";
    /** The gold replay batching every run of assistant actions into one turn (for Brokkr's agent loop). */
    public static final String GOLD_BATCH = "gold-batch";

    public static final String SCRIPTED_USER = "user";
    public static final String KNOWN_VERDICT = "known-verdict";
    /**
     * A scripted judge model that answers, in upstream's judge format, that every assertion it is asked
     * about is met: no model is asked and nothing is measured (its verdicts are self-reported). For
     * exercising the judge's request path without a model, e.g. {@code experiment regrade --judge scripted:all-met}.
     */
    public static final String ALL_MET = "all-met";

    /** The user and judge an experiment gets when it names none: fit for the scripted candidates only. */
    public static final ModelRef DEFAULT_USER = new ModelRef(SCRIPTED, SCRIPTED_USER);

    public static final ModelRef DEFAULT_JUDGE = new ModelRef(SCRIPTED, KNOWN_VERDICT);

    /**
     * A model with upstream's request settings for {@code role} ({@code agent}, {@code user},
     * {@code judge}; {@code generate} in {@code src/tau2/utils/llm_utils.py}): temperature 0, and for
     * the agent, which always has tools, {@code tool_choice: "auto"} on OpenAI-compatible providers
     * (litellm passes both on to those). The per-trial seed is not an option: the protocol adds it.
     */
    public static ModelRef upstreamModel(String provider, String model, String role) {
        PyDict.Builder o = PyDict.builder().put("temperature", UPSTREAM_TEMPERATURE);
        if (role.equals(Evidence.AGENT) && Providers.openAiCompatible(provider)) o.put("tool_choice", "auto");
        return new ModelRef(provider, model, o.build());
    }

    /** Upstream's default temperature for agent, user simulator and judge ({@code src/tau2/config.py}). */
    static final double UPSTREAM_TEMPERATURE = 0.0;

    private final String domainName;
    private final Exploration exploration;
    private volatile Loaded loaded;

    /** @param domainName upstream's name of the domain ({@code retail}); the benchmark is {@code tau2-<name>} */
    protected Tau2Benchmark(String domainName) {
        this.domainName = domainName;
        this.exploration = new Tau2Exploration(name(), () -> loaded().catalogue());
    }

    /**
     * What a domain package loads from its data files (digests verified): the domain as episodes run it,
     * its environments for conformance replay, and what exploring it shows.
     */
    public record Loaded(
            Tau2Domain episodes,
            Tau2Conformance.EnvironmentFactory environments,
            Tau2Exploration.Catalogue catalogue) {}

    /** Loads the domain's data from {@code data}, every file's digest verified; the benchmark's own is loaded once, on first use. */
    protected abstract Loaded load(Tau2Data data);

    /** The domain's data loaded from another data directory (a copy, e.g.), digests verified; the benchmark's own data is not touched. */
    public Loaded loadFrom(Tau2Data data) {
        return load(data);
    }

    /** The sha256 of each of the domain's own upstream files, by path (the user simulator's are added here). */
    protected abstract Map<String, String> digests();

    /**
     * Notes on pinned files that are not upstream's own at {@link Tau2Domains#UPSTREAM_REVISION} (a
     * reconstruction, a substitute from another commit), by path: a copy fetched from upstream is
     * expected to differ from these pins ({@code ./brokkr data fetch} says so). None by default.
     */
    protected Map<String, String> dataNotes() {
        return Map.of();
    }

    /** Every pin of {@link #dataDigests()} with its note, if any, for fetching the data from upstream. */
    public Map<String, UpstreamData.Pin> dataPins() {
        Map<String, UpstreamData.Pin> m = new TreeMap<>();
        Map<String, String> notes = dataNotes();
        dataDigests().forEach((path, sha) -> m.put(path, new UpstreamData.Pin(sha, notes.get(path))));
        return Map.copyOf(m);
    }

    /** Upstream's name of the domain ({@code retail}). */
    public String domainName() {
        return domainName;
    }

    @Override
    public String name() {
        return "tau2-" + domainName;
    }

    /** The sha256 of every upstream file the domain's episodes depend on, by path: its own and the user simulator's guidelines. */
    public Map<String, String> dataDigests() {
        Map<String, String> m = new TreeMap<>(digests());
        m.putAll(Tau2Data.USER_SIMULATOR_DIGESTS);
        return Map.copyOf(m);
    }

    /** The domain's data, loaded (and digest-checked) on first use: a registry lookup alone reads nothing. */
    public Loaded loaded() {
        Loaded l = loaded;
        if (l == null) {
            synchronized (this) {
                if (loaded == null) loaded = load(Tau2Data.locate());
                l = loaded;
            }
        }
        return l;
    }

    /** The domain as episodes run it. */
    public Tau2Domain domain() {
        return loaded().episodes();
    }

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(exploration);
    }

    /** The NL assertions judged again from a record ({@link Tau2Rejudging}). */
    @Override
    public Optional<Rejudging> rejudging() {
        return Optional.of(new Tau2Rejudging(this));
    }

    @Override
    public List<String> tasks(String split) {
        return domain().split(split).stream().map(TaskSpec::id).toList();
    }

    // ---------------------------------------------------------------- environment options

    /**
     * Only when some episode was stopped by its cell's budget ({@code budget.per_cell}, the failed
     * {@code within_cell_budget} check): how many, so that {@code experiment show} says so. Otherwise tau2 has no
     * report of its own.
     */
    @Override
    public List<brokkr.eval.Report> reports(List<brokkr.eval.Report.Outcome> outcomes) {
        int completed = 0, stopped = 0;
        for (brokkr.eval.Report.Outcome o : outcomes) {
            if (!o.attempt().completed()) continue;
            completed++;
            if (o.attempt().checks().stream().anyMatch(c -> c.name().equals(Tau2Evaluator.WITHIN_CELL_BUDGET)))
                stopped++;
        }
        if (stopped == 0) return List.of();
        return List.of(new brokkr.eval.Report(
                "cell budget",
                List.of("episodes", "stopped_by_cell_budget"),
                List.of(List.of(completed, stopped)),
                List.of(new brokkr.eval.Report.Figure("stopped_by_cell_budget", (double) stopped)),
                List.of("stopped: the candidate's calls reached the experiment's budget.per_cell (termination "
                        + "cell_budget); scored 0, as upstream's evaluate_simulation scores every premature stop")));
    }

    /** Option: upstream's {@code max_steps} (default 200). */
    public static final String MAX_STEPS = "max_steps";
    /** Option: upstream's {@code max_errors} (default 10). */
    public static final String MAX_ERRORS = "max_errors";
    /** Option: upstream's {@code enforce_communication_protocol} (default false). */
    public static final String ENFORCE_COMMUNICATION_PROTOCOL = "enforce_communication_protocol";
    /** Option: the run seed upstream's per-trial seeds derive from ({@link TrialSeeds}, default 300). */
    public static final String RUN_SEED = "run_seed";
    /**
     * Option: {@code ###STOP###} in a model candidate's text ends the episode (default false: upstream's
     * half-duplex LLMAgent at the pinned commit never stops by itself, see {@link AgentSide}); the
     * scripted candidates always stop on it. Recorded only when true, so definitions made before the
     * option existed keep their ids.
     */
    public static final String AGENT_STOP_TOKEN = "agent_stop_token";

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        return environment(taskId, models, PyDict.empty());
    }

    /** Options: {@value #MAX_STEPS}, {@value #MAX_ERRORS}, {@value #ENFORCE_COMMUNICATION_PROTOCOL}, {@value #RUN_SEED}, {@value #AGENT_STOP_TOKEN}. */
    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models, PyDict options) {
        TaskSpec task = domain().task(taskId);
        if (task.hasMessageHistory())
            throw new IllegalArgumentException(
                    "task " + taskId + " starts from a message history, which is not supported");
        Map<String, ModelRef> roles = new TreeMap<>();
        roles.put("user", models.getOrDefault("user", DEFAULT_USER));
        roles.put("judge", models.getOrDefault("judge", DEFAULT_JUDGE));
        return new EnvironmentDef(
                name(), Tau2Domains.UPSTREAM_REVISION, dataDigests(), taskId, roles, Tau2Options.of(options));
    }

    // ---------------------------------------------------------------- the evaluation path, by role

    @Override
    public WorldSetup worldSetup() {
        return Tau2Fork.setup(this::domain);
    }

    @Override
    public Optional<WorldReplay> worldReplay() {
        return Optional.of(Tau2Fork.replay(this::domain));
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        return Tau2ScriptedModels.of(name(), domain(), role, model, env.taskId());
    }

    /** A conversation with the simulated customer; the reference agent with tools, or Brokkr's loop with tools or the Java REPL. */
    @Override
    public AgentInterface agentInterface() {
        return AgentInterface.referenceAndLoop(AgentInterface.Shape.CONVERSATION, List.of("tools"))
                .withClaudeCode();
    }

    @Override
    public Protocol protocol() {
        return Tau2Protocol.of(this);
    }

    @Override
    public Evaluator evaluator() {
        return Tau2Evaluator.of(this);
    }

    @Override
    public Optional<Branching> branching() {
        return Optional.of(new Tau2Branching(this));
    }

    /** The name of the judge {@code judge} is for {@code agent}'s episodes (a scripted judge's name says which verdict it knows). */
    public static String judgeName(ModelRef judge, AgentDef agent) {
        return Tau2Evaluator.judgeName(judge, agent);
    }
}
