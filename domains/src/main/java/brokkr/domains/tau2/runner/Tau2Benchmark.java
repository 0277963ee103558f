package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.environment.Tau2Data;

import brokkr.domains.tau2.conformance.Tau2Conformance;

import brokkr.domains.tau2.model.Tau2Transcript;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import brokkr.value.PyList;
import brokkr.python.PyJson;
import brokkr.conversation.Turn;
import brokkr.conversation.Message;
import brokkr.data.UpstreamData;
import brokkr.eval.AgentDef;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Branching;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evidence;
import brokkr.eval.Evaluator;
import brokkr.eval.Exploration;
import brokkr.eval.Interaction;
import brokkr.eval.InterruptedInteraction;
import brokkr.eval.ModelRef;
import brokkr.eval.Models;
import brokkr.eval.Protocol;
import brokkr.eval.Rejudging;
import brokkr.eval.RunContext;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldReplay;
import brokkr.eval.WorldSetup;
import brokkr.provider.Providers;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.evaluator.EnvEvaluator;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.domains.tau2.agent.GoldLoopAgent;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.harness.Tau2Harness;
import brokkr.repl.Harness;
import brokkr.repl.JavaRepl;
import brokkr.domains.tau2.agent.NoisyGoldAgent;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.domains.tau2.evaluator.Checks;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.evaluator.Tau2Grader;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A tau2-bench domain on the evaluation path, benchmark {@code tau2-<name>}. Each domain package has
 * one subclass ({@code retail.RetailBenchmark}, ...) that loads its data, registered by one line of
 * {@code META-INF/services/brokkr.eval.BenchmarkProvider}; {@link Tau2Domains} finds them there.
 *
 * <ul>
 *   <li><b>World setup</b>: the task's initial world (upstream {@code set_state}) goes into the run's
 *       fork; the evidence is its {@code get_db_hash()}.</li>
 *   <li><b>Protocol</b>: upstream's half-duplex conversation ({@link Orchestrator}) with the candidate
 *       as agent and the environment's {@code user} model as user simulator (upstream's per-task
 *       prompt). It returns the transcript (every message and tool call with its result) and the
 *       termination reason, never the grade. The orchestrator records a failed model call as an
 *       {@code infrastructure_error} termination; here that is rethrown as an
 *       {@link InterruptedInteraction} (an {@link InfrastructureFailure} keeping the transcript so far),
 *       so the attempt is excluded from metrics rather than graded.</li>
 *   <li><b>Evaluator</b>: upstream's grading ({@link Tau2Grader}) of the recorded transcript against the
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
 * {@code agent_stop_token}, false).
 *
 * <p>Scripted models ({@code provider: scripted}): candidates {@code gold} (replays the task's gold
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
    public record Loaded(Tau2Domain episodes, Tau2Conformance.EnvironmentFactory environments, Tau2Exploration.Catalogue catalogue) {}

    /** Loads the domain's data; called once, on first use. */
    protected abstract Loaded load();

    /** The sha256 of each of the domain's own upstream files, by path (the user simulator's are added here). */
    protected abstract Map<String, String> digests();

    /**
     * Notes on pinned files that are not upstream's own at {@link Tau2Domains#UPSTREAM_REVISION} (a
     * reconstruction, a substitute from another commit), by path: a copy fetched from upstream is
     * expected to differ from these pins ({@code ./brokkr data fetch} says so). None by default.
     */
    protected Map<String, String> dataNotes() { return Map.of(); }

    /** Every pin of {@link #dataDigests()} with its note, if any, for fetching the data from upstream. */
    public Map<String, UpstreamData.Pin> dataPins() {
        Map<String, UpstreamData.Pin> m = new TreeMap<>();
        Map<String, String> notes = dataNotes();
        dataDigests().forEach((path, sha) -> m.put(path, new UpstreamData.Pin(sha, notes.get(path))));
        return Map.copyOf(m);
    }

    /** Upstream's name of the domain ({@code retail}). */
    public String domainName() { return domainName; }

    @Override public String name() { return "tau2-" + domainName; }

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
                if (loaded == null) loaded = load();
                l = loaded;
            }
        }
        return l;
    }

    /** The domain as episodes run it. */
    public Tau2Domain domain() { return loaded().episodes(); }

    @Override public Optional<Exploration> exploration() { return Optional.of(exploration); }

    /** The NL assertions judged again from a record ({@link Tau2Rejudging}). */
    @Override public Optional<Rejudging> rejudging() { return Optional.of(new Tau2Rejudging(this)); }

    @Override public List<String> tasks(String split) {
        return domain().split(split).stream().map(TaskSpec::id).toList();
    }

    // ---------------------------------------------------------------- environment options

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

    /** Upstream's orchestrator defaults, the options of every EnvironmentDef that sets none. */
    private static final PyDict DEFAULT_OPTIONS = PyDict.builder()
            .put(MAX_STEPS, EpisodeOptions.DEFAULT.maxSteps()).put(MAX_ERRORS, EpisodeOptions.DEFAULT.maxErrors())
            .put(ENFORCE_COMMUNICATION_PROTOCOL, PyBool.of(EpisodeOptions.DEFAULT.enforceCommunicationProtocol()))
            .put(RUN_SEED, TrialSeeds.DEFAULT_RUN_SEED).build();

    @Override public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        return environment(taskId, models, PyDict.empty());
    }

    /** Options: {@value #MAX_STEPS}, {@value #MAX_ERRORS}, {@value #ENFORCE_COMMUNICATION_PROTOCOL}, {@value #RUN_SEED}, {@value #AGENT_STOP_TOKEN}. */
    @Override public EnvironmentDef environment(String taskId, Map<String, ModelRef> models, PyDict options) {
        TaskSpec task = domain().task(taskId);
        if (task.hasMessageHistory()) throw new IllegalArgumentException("task " + taskId + " starts from a message history, which is not supported");
        Map<String, ModelRef> roles = new TreeMap<>();
        roles.put("user", models.getOrDefault("user", DEFAULT_USER));
        roles.put("judge", models.getOrDefault("judge", DEFAULT_JUDGE));
        return new EnvironmentDef(name(), Tau2Domains.UPSTREAM_REVISION, dataDigests(), taskId, roles, options(options));
    }

    /** The given options over upstream's defaults, checked; {@value #AGENT_STOP_TOKEN} only when true. */
    static PyDict options(PyDict given) {
        PyDict o = DEFAULT_OPTIONS;
        for (var e : given.entries()) {
            String k = e.getKey();
            Value v = e.getValue();
            switch (k) {
                case MAX_STEPS, MAX_ERRORS -> {
                    if (!(v instanceof PyInt i) || i.longValue() < 1 || i.longValue() > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("option " + k + " must be an integer of at least 1");
                    }
                    o = o.with(k, v);
                }
                case RUN_SEED -> {
                    if (!(v instanceof PyInt i) || i.value().bitLength() > 63) throw new IllegalArgumentException("option " + k + " must be an integer");
                    o = o.with(k, v);
                }
                case ENFORCE_COMMUNICATION_PROTOCOL -> o = o.with(k, flag(k, v));
                case AGENT_STOP_TOKEN -> o = flag(k, v).value() ? o.with(k, PyBool.TRUE) : o.without(k);
                default -> throw new IllegalArgumentException("unknown option '" + k + "' (known: " + String.join(", ",
                        MAX_STEPS, MAX_ERRORS, ENFORCE_COMMUNICATION_PROTOCOL, RUN_SEED, AGENT_STOP_TOKEN) + ")");
            }
        }
        return o;
    }

    private static PyBool flag(String k, Value v) {
        if (v instanceof PyBool b) return b;
        throw new IllegalArgumentException("option " + k + " must be true or false");
    }

    static EpisodeOptions episodeOptions(PyDict o) {
        return new EpisodeOptions((int) num(o.get(MAX_STEPS)), (int) num(o.get(MAX_ERRORS)),
                ((PyBool) o.get(ENFORCE_COMMUNICATION_PROTOCOL)).value());
    }

    private static boolean agentStopToken(PyDict o) { return o.get(AGENT_STOP_TOKEN) instanceof PyBool b && b.value(); }

    // ---------------------------------------------------------------- world

    /**
     * The fork holds the agent DB, or {@code {"db", "user_db"}} for domains whose user has a DB of its own,
     * with {@code "session"} for domains that keep state outside their DBs (telecom).
     */
    static Value encode(Worlds w) {
        if (w.userDb() == null && w.session() == null) return w.db();
        PyDict.Builder b = PyDict.builder().put("db", w.db());
        if (w.userDb() != null) b.put("user_db", w.userDb());
        if (w.session() != null) b.put("session", w.session());
        return b.build();
    }

    /** The fork's value as worlds, shaped like the task's initial worlds. */
    static Worlds decode(Value v, Worlds initial) {
        if (initial.userDb() == null && initial.session() == null) return new Worlds(v, null);
        PyDict d = v.asDict();
        return new Worlds(d.get("db"), d.get("user_db"), d.get("session"));
    }

    @Override public WorldSetup worldSetup() {
        return (env, fork) -> {
            Tau2Domain d = domain();
            EpisodeEnvironment<Worlds> e = d.environment();
            Worlds w = e.initialWorld(d.task(env.taskId()));
            fork.set(encode(w));
            return PyDict.of("initial_db_hash", e.dbHash(w), "initial_user_db_hash", nullable(e.userDbHash(w)));
        };
    }

    /**
     * Replays the record's tool calls from the task's initial world: each message whose tool calls the
     * environment answered (the transcript has their results next) runs as one step, as the orchestrator
     * ran it, followed by {@code sync_tools}; calls that never reached the environment (a malformed call
     * that ended the episode) are not replayed.
     */
    @Override public Optional<WorldReplay> worldReplay() {
        return Optional.of((env, evidence) -> {
            Tau2Domain d = domain();
            EpisodeEnvironment<Worlds> e = d.environment();
            Worlds w = e.initialWorld(d.task(env.taskId()));
            List<Tau2Message> t = Tau2Transcript.fromValue(evidence.transcript());
            for (int i = 0; i < t.size(); i++) {
                if (t.get(i) instanceof Tau2Message.Participant p && p.isToolCall()
                        && i + 1 < t.size() && t.get(i + 1) instanceof Tau2Message.ToolResult) {
                    Requestor requestor = p instanceof Tau2Message.Agent ? Requestor.ASSISTANT : Requestor.USER;
                    List<EpisodeEnvironment.Call> calls = p.toolCalls().stream()
                            .map(c -> new EpisodeEnvironment.Call(c.name(), c.arguments())).toList();
                    w = e.sync(e.respondAll(w, requestor, calls).world());
                }
            }
            return encode(e.sync(w));
        });
    }

    // ---------------------------------------------------------------- scripted models

    @Override public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        TaskSpec task = domain().task(env.taskId());
        String m = model.model();
        return switch (role) {
            case "agent" -> switch (m) {
                // Offered only java_eval (harness loop, action space repl), the gold replay writes its calls as Java.
                case GOLD -> {
                    GoldReplayAgent reference = new GoldReplayAgent(task);
                    GoldLoopAgent java = new GoldLoopAgent(task, domain().environment().agentTools());
                    yield (history, tools) -> tools.size() == 1 && tools.getFirst().name().equals(JavaRepl.TOOL)
                            ? java.next(history, tools) : reference.next(history, tools);
                }
                case GOLD_BATCH -> new GoldLoopAgent(task, domain().environment().agentTools());
                case STOP -> new StopAtOnceAgent();
                default -> {
                    // gold-N: gold in N% of its turns, seeded by the model's 'seed' option (probes give each sample its own)
                    if (m.matches("gold-(100|[1-9]?[0-9])")) {
                        yield new NoisyGoldAgent(task, Integer.parseInt(m.substring(5)) / 100.0,
                                model.options().get("seed") instanceof PyInt seed ? seed.longValue() : 0);
                    }
                    throw new IllegalArgumentException("unknown " + name() + " candidate '" + m + "' (scripted candidates: gold, gold-batch, stop,"
                            + " gold-N for gold in N% of turns)");
                }
            };
            case "user" -> {
                if (!m.equals(SCRIPTED_USER)) throw new IllegalArgumentException("unknown " + name() + " scripted user '" + m + "' (scripted users: user)");
                yield new ScriptedUser(task);
            }
            case "judge" -> switch (m) {
                // The known-verdict judge is not a model: the evaluator applies it (see judge()).
                case KNOWN_VERDICT -> (history, tools) -> { throw new IllegalStateException("the known-verdict judge is applied by the evaluator, not called"); };
                case ALL_MET -> allMet(task);
                default -> throw new IllegalArgumentException("unknown " + name() + " scripted judge '" + m + "' (scripted judges: known-verdict, all-met)");
            };
            default -> throw new IllegalArgumentException(name() + " has no scripted " + role);
        };
    }

    // ---------------------------------------------------------------- protocol

    /**
     * One run's episode as the protocol plays it: the task, the sides, the settings and the world the fork
     * holds; the harness's resources (a sandbox JVM) to release after it, and what the agent's model was
     * asked, counted the same way under every harness ({@link Interaction.Counter}: its steps and the
     * characters of each request, what input tokens grow with).
     */
    record Sides(Tau2Domain domain, TaskSpec task, EpisodeEnvironment<Worlds> env, AgentSide agent, UserSide user,
                 EpisodeOptions options, long seed, Worlds world, Harness harness, AutoCloseable resources,
                 Interaction.Counter agentCounter) {
        void release() {
            try {
                resources.close();
            } catch (Exception e) {
                // releasing a sandbox JVM cannot change the episode's result
            }
        }
    }

    /** The protocol's reading of a run context: the checks, the per-trial seed, the harnessed agent and the customer. */
    Sides sides(RunContext ctx) {
        Tau2Domain d = domain();
        TaskSpec task = d.task(ctx.env().taskId());
        AgentDef agentDef = ctx.agent();
        Harness harness = Harness.fromValue(agentDef.harness());
        if (!agentDef.actionSpace().equals("tools") && !(harness.loop() && agentDef.actionSpace().equals(Harness.REPL))) {
            throw new IllegalArgumentException(name() + " has the action spaces 'tools' and (with harness: loop) 'repl', not '" + agentDef.actionSpace() + "'");
        }
        boolean scriptedAgent = agentDef.provider().equals(SCRIPTED);
        ModelRef userRef = ctx.env().models().get("user");
        if (!scriptedAgent && userRef.provider().equals(SCRIPTED)) {
            throw new IllegalArgumentException("a model candidate needs a user simulator model (the experiment's 'user'); "
                    + "the scripted user only plays opposite the scripted candidates");
        }
        PyDict opts = ctx.env().options();
        long seed = TrialSeeds.of(num(opts.get(RUN_SEED)), ctx.repetition() + 1)[ctx.repetition()];
        Candidate agentModel = seeded(agentDef.provider()) ? ctx.models().model("agent", PyDict.of("seed", seed)) : ctx.candidate();
        Candidate userModel = ctx.models().model("user", seeded(userRef.provider()) ? PyDict.of("seed", seed) : PyDict.empty());
        String prompt = ctx.systemPrompt() == null ? d.agentSystemPrompt() : ctx.systemPrompt() + "\n\n" + d.agentSystemPrompt();
        EpisodeEnvironment<Worlds> env = d.environment();
        Interaction.Counter counter = new Interaction.Counter();
        Tau2Harness.Agent harnessed = Tau2Harness.of(harness, counter.wrap(agentModel), prompt, env.agentTools());
        // Upstream's LLMAgent never stops by itself (unless the environment says so); the scripted agents stop on ###STOP###.
        AgentSide agent = new AgentSide(agentDef.modelRef().toString(), harnessed.candidate(), harnessed.systemPrompt(), env.agentTools(),
                scriptedAgent || agentStopToken(opts));
        UserSide user = new UserSide(userRef.toString(), userModel, d.userSystemPrompt().apply(task), env.userTools(task));
        Worlds initial = env.initialWorld(task);
        return new Sides(d, task, env, agent, user, episodeOptions(opts), seed, decode(ctx.world().get(), initial), harness,
                harnessed.resources(), counter);
    }

    @Override public Protocol protocol() {
        return ctx -> {
            Sides s = sides(ctx);
            Orchestrator.Run<Worlds> run;
            try {
                run = Orchestrator.run(s.env(), s.world(), s.agent(), s.user(), s.options());
            } finally {
                s.release();
            }
            return interaction(ctx, s, run);
        };
    }

    /** The interaction of a finished episode, its final world written to the fork; a failed model call is an interrupted interaction. */
    static Interaction interaction(RunContext ctx, Sides s, Orchestrator.Run<Worlds> run) throws InterruptedInteraction {
        long seed = s.seed();
        EpisodeEnvironment<Worlds> env = s.env();
        Interaction interaction = new Interaction(Tau2Transcript.toValue(run.trajectory()),
                PyDict.of("steps", run.steps(), "tool_errors", run.toolErrors(), "seed", seed, "note", nullable(run.note())),
                run.termination().value(), s.agentCounter().counts(agentToolCalls(run.trajectory())));
        switch (run.termination()) {
            case INFRASTRUCTURE_ERROR -> {
                List<ModelCall> calls = new ArrayList<>(run.agentCalls());
                calls.addAll(run.userCalls());
                throw new InterruptedInteraction("tau2 episode ended with infrastructure_error: " + run.note(), calls, interaction);
            }
            case UNEXPECTED_ERROR -> throw new IllegalStateException("tau2 episode ended with unexpected_error: " + run.note());
            default -> { }
        }
        ctx.world().set(encode(env.sync(run.finalWorld())));
        return interaction;
    }

    @Override public Optional<Branching> branching() { return Optional.of(new Tau2Branching(this)); }

    /** The domain calls the agent made (under a REPL harness, those its snippets made), as the trajectory records them. */
    static long agentToolCalls(List<Tau2Message> trajectory) {
        long n = 0;
        for (Tau2Message m : trajectory) if (m instanceof Tau2Message.Agent a && a.isToolCall()) n += a.toolCalls().size();
        return n;
    }

    /** Upstream's litellm passes {@code seed} to OpenAI-compatible providers only. */
    private static boolean seeded(String provider) { return Providers.openAiCompatible(provider); }

    // ---------------------------------------------------------------- evaluator

    @Override public Evaluator evaluator() {
        return (run, models) -> {
            Tau2Domain d = domain();
            TaskSpec task = d.task(run.env().taskId());
            EpisodeEnvironment<Worlds> env = d.environment();
            Worlds initial = env.initialWorld(task);
            Value recorded = run.setupEvidence().get("initial_db_hash");
            boolean setup = recorded instanceof PyStr s && s.value().equals(env.dbHash(initial));
            TerminationReason reason = termination(run.interaction().termination());
            List<Tau2Message> trajectory = Tau2Transcript.fromValue(run.interaction().transcript());
            var evidence = EnvEvaluator.evidence(env, task, decode(run.finalWorld(), initial));
            ModelRef judgeRef = run.env().models().get("judge");
            Grade g;
            try {
                g = Tau2Grader.grade(task, trajectory, reason.isNormalStop(), reason.value(), evidence, judge(judgeRef, run.agent(), models));
            } catch (NlJudge.JudgeFormatException e) {
                // Upstream's evaluation raises on an unparsable judge answer and its runner records an
                // infrastructure error: not the candidate's fault. The judge's calls are recorded already.
                throw new InfrastructureFailure("judge: " + e.getMessage(), List.of(), e);
            } catch (InfrastructureFailure e) {
                // The judge's model could not be reached: the failure names the role, as above.
                throw new InfrastructureFailure("judge: " + e.getMessage(), e.attempts(), e);
            }
            List<Check> checks = new ArrayList<>();
            checks.add(new Check("setup_verified", setup));
            checks.add(new Check("terminated_normally", reason.isNormalStop()));
            checks.addAll(componentChecks(g, task));
            TrustTier trust = g.judge() == null ? TrustTier.DETERMINISTIC
                    : judgeRef.provider().equals(SCRIPTED) ? TrustTier.SELF_REPORTED : TrustTier.MODEL_JUDGED;
            return new Verdict(checks, setup ? g.reward() : 0.0, trust,
                    PyDict.of("termination", reason.value(), "grade", g.toValue()));
        };
    }

    /**
     * One check per reward component in the task's basis: the component's reward when upstream
     * evaluated it; after a premature termination (nothing is evaluated upstream, the reward is 0) the
     * deterministic components' diagnostics, and no NL check since no judge is asked.
     */
    static List<Check> componentChecks(Grade g, TaskSpec task) {
        List<Check> out = new ArrayList<>();
        if (task.criteria() == null) return out;
        for (RewardType t : List.of(RewardType.DB, RewardType.ENV_ASSERTION, RewardType.ACTION, RewardType.NL_ASSERTION, RewardType.COMMUNICATE)) {
            if (!task.criteria().basisIncludes(t)) continue;
            String name = t.name().toLowerCase(Locale.ROOT);
            Double r = g.breakdown().get(t);
            if (r != null) {
                out.add(new Check(name, r == 1.0));
                continue;
            }
            switch (t) {
                // Upstream's short cut (no actions, no env assertions): no DB entry, the DB counts as matched.
                case DB -> out.add(new Check(name, g.db() == null || g.db().dbMatch()));
                case ENV_ASSERTION -> out.add(new Check(name, g.envAssertions().stream().allMatch(Checks.EnvAssertionCheck::met)));
                case ACTION -> out.add(new Check(name, g.actions().stream().allMatch(Checks.ActionCheck::actionMatch)));
                case COMMUNICATE -> out.add(new Check(name, g.communicate().stream().allMatch(Checks.CommunicateCheck::met)));
                case NL_ASSERTION -> { } // not evaluated: the judge was not asked
            }
        }
        return out;
    }

    /**
     * The NL judge named by the environment: the known-verdict judge, which only the scripted candidates
     * have a verdict for, or a judge model (a scripted one too) asked with upstream's prompt.
     */
    private static NlJudge judge(ModelRef ref, AgentDef agent, Models models) {
        return isKnownVerdict(ref) ? knownVerdict(agent) : new ModelNlJudge(ref.toString(), models.model("judge"));
    }

    private static boolean isKnownVerdict(ModelRef ref) { return ref.provider().equals(SCRIPTED) && ref.model().equals(KNOWN_VERDICT); }

    /** The {@value #ALL_MET} judge for a task: every assertion asked about is met, in upstream's answer format. */
    private static Candidate allMet(TaskSpec task) {
        List<String> assertions = task.criteria() == null || task.criteria().nlAssertions() == null ? List.of() : task.criteria().nlAssertions();
        List<Value> results = new ArrayList<>();
        for (String a : assertions) {
            results.add(PyDict.of("expectedOutcome", a, "reasoning", "scripted judge (" + ALL_MET + "): no model was asked", "metExpectation", PyBool.TRUE));
        }
        String answer = PyJson.dumps(PyDict.of("results", PyList.of(results)));
        return (history, tools) -> Turn.of(new Message.Assistant(answer));
    }

    /** The name of the judge {@code judge} is for {@code agent}'s episodes (a scripted judge's name says which verdict it knows). */
    public static String judgeName(ModelRef judge, AgentDef agent) {
        return isKnownVerdict(judge) ? knownVerdict(agent).name() : judge.toString();
    }

    /**
     * The one rule mapping a candidate to the scripted judge: the gold replay meets every assertion
     * ({@code scripted-gold-verdict}), stopping at once none ({@code scripted-all-unmet}); any other
     * candidate has no known verdict, and a task that needs one fails.
     */
    private static NlJudge knownVerdict(AgentDef agent) {
        if (agent.provider().equals(SCRIPTED) && (agent.model().equals(GOLD) || agent.model().equals(GOLD_BATCH))) return ScriptedVerdictJudge.goldVerdict();
        if (agent.provider().equals(SCRIPTED) && agent.model().equals(STOP)) return ScriptedVerdictJudge.allUnmet();
        return new NlJudge() {
            @Override public String name() { return "scripted-" + KNOWN_VERDICT; }
            @Override public NlJudge.Verdict judge(List<Tau2Message> trajectory, List<String> nlAssertions) {
                throw new IllegalArgumentException("the known-verdict judge has no verdict for candidate " + agent.modelRef()
                        + "; name a judge model (the experiment's 'judge')");
            }
        };
    }

    static TerminationReason termination(String value) {
        for (TerminationReason r : TerminationReason.values()) if (r.value().equals(value)) return r;
        throw new IllegalArgumentException("unknown termination reason '" + value + "'");
    }

    private static long num(Value v) { return ((PyInt) v).longValue(); }

    private static Value nullable(String s) { return s == null ? PyNone.NONE : new PyStr(s); }
}
