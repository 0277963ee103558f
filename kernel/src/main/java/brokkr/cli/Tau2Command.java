package brokkr.cli;

import brokkr.conversation.Candidate;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.Episode;
import brokkr.domains.tau2.orchestrator.EpisodeJson;
import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.domains.tau2.orchestrator.EpisodeResult;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.runner.TrialSeeds;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.runner.PassHatK;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.model.TaskSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./brokkr tau2 run}: tau2 episodes with upstream's half-duplex protocol and grading, one line
 * per episode and the run's average reward and pass^k.
 */
public final class Tau2Command implements Command {
    /** Upstream's default temperature for agent, user simulator and judge ({@code src/tau2/config.py}). */
    static final double UPSTREAM_TEMPERATURE = 0.0;

    /** Where provider settings and keys come from: the process environment, or a map in tests. */
    private final Map<String, String> env;

    public Tau2Command() { this(System.getenv()); }

    Tau2Command(Map<String, String> env) { this.env = Map.copyOf(env); }

    @Override public String name() { return "tau2"; }

    @Override public String summary() { return "run tau2-bench episodes (upstream protocol and grading)"; }

    @Override public String usage() {
        return """
                usage: ./brokkr tau2 run --domain DOMAIN --agent gold|stop|llm [--split train|test|base] [--task ID]...
                                         [--model M] [--user-model M] [--judge-model M] [--provider P]
                                         [--trials N] [--seed N] [--parallelism N] [--enforce-protocol] [--agent-stop-token]
                                         [--max-steps N] [--max-errors N] [--out FILE.jsonl]

                  --domain          tau2 domain: %s
                  --agent           gold: replays the task's gold actions (scripted); stop: stops at once (scripted);
                                    llm: upstream's LLMAgent on --model (never stops by itself, as upstream's)
                  --split           task split (default base); --task ID (repeatable) picks tasks instead
                  --model           the agent's model (required with --agent llm)
                  --user-model      user-simulator model with upstream's per-task prompt (required with --agent llm);
                                    default: a scripted user that opens with the task's request and stops when the
                                    agent does
                  --judge-model     NL-assertion judge model with upstream's prompt; default: a SCRIPTED judge that
                                    is told the verdict (scripted-gold-verdict for --agent gold, scripted-all-unmet
                                    for --agent stop); required with --agent llm
                  --provider        model provider for every model (default openai; keys from the environment)
                  --trials          episodes per task (default 1); pass^k for k up to N
                  --seed            run seed (default 300, upstream's): trial i's agent and user get upstream's
                                    i-th seed as the request's seed (OpenAI-compatible providers; upstream's
                                    litellm drops it elsewhere); the judge gets none
                  --parallelism     episodes run at once (default 1); output stays in task order
                  --enforce-protocol  upstream's enforce_communication_protocol (default off)
                  --agent-stop-token  let ###STOP### in the llm agent's text end the episode (upstream's LLMAgent
                                    at the pinned commit does not: its stop token is text for the user)
                  --max-steps, --max-errors  upstream's limits (default 200, 10)
                  --out             append one JSON object per episode (transcript, grade, model requests)
                """.formatted(String.join(", ", Tau2Domains.names()));
    }

    record Args(String domain, String agent, String split, List<String> tasks, String model, String userModel,
                String judgeModel, String provider, int trials, long seed, int parallelism, EpisodeOptions options, boolean agentStopToken, Path out) {}

    static Args parse(List<String> args) {
        if (args.isEmpty() || !args.get(0).equals("run")) throw new UsageException("expected the subcommand 'run'");
        String domain = null, agent = null, split = null, model = null, userModel = null, judgeModel = null, provider = "openai";
        List<String> tasks = new ArrayList<>();
        int trials = 1, parallelism = 1;
        long seed = TrialSeeds.DEFAULT_RUN_SEED;
        EpisodeOptions options = EpisodeOptions.DEFAULT;
        Path out = null;
        boolean agentStopToken = false;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--enforce-protocol" -> options = options.withEnforcedProtocol(true);
                case "--agent-stop-token" -> agentStopToken = true;
                case "--domain", "--agent", "--split", "--task", "--model", "--user-model", "--judge-model", "--provider",
                     "--trials", "--seed", "--parallelism", "--max-steps", "--max-errors", "--out" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    String v = args.get(++i);
                    switch (a) {
                        case "--domain" -> domain = v;
                        case "--agent" -> agent = v;
                        case "--split" -> split = v;
                        case "--task" -> tasks.add(v);
                        case "--model" -> model = v;
                        case "--user-model" -> userModel = v;
                        case "--judge-model" -> judgeModel = v;
                        case "--provider" -> provider = v;
                        case "--trials" -> trials = positive(a, v);
                        case "--parallelism" -> parallelism = positive(a, v);
                        case "--seed" -> {
                            try {
                                seed = Long.parseLong(v);
                            } catch (NumberFormatException e) {
                                throw new UsageException("--seed needs an integer, not '" + v + "'");
                            }
                        }
                        case "--max-steps" -> options = options.withMaxSteps(positive(a, v));
                        case "--max-errors" -> options = options.withMaxErrors(positive(a, v));
                        case "--out" -> out = Path.of(v);
                        default -> throw new AssertionError(a);
                    }
                }
                default -> throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if (domain == null) throw new UsageException("--domain is required");
        if (!Tau2Domains.names().contains(domain)) throw new UsageException("unknown domain '" + domain + "' (available: " + String.join(", ", Tau2Domains.names()) + ")");
        if (agent == null) throw new UsageException("--agent is required");
        if (!List.of("gold", "stop", "llm").contains(agent)) throw new UsageException("--agent must be gold, stop or llm, not '" + agent + "'");
        if (agent.equals("llm") && model == null) throw new UsageException("--agent llm needs --model");
        if (!agent.equals("llm") && model != null) throw new UsageException("--model is the llm agent's model; --agent " + agent + " is scripted");
        if (agent.equals("llm") && userModel == null) {
            throw new UsageException("--agent llm needs --user-model (the scripted user only opens the conversation and says thanks)");
        }
        if (agent.equals("llm") && judgeModel == null) {
            throw new UsageException("--agent llm needs --judge-model (the scripted judge only knows the gold verdict)");
        }
        if (agentStopToken && !agent.equals("llm")) throw new UsageException("--agent-stop-token applies to --agent llm (scripted agents always stop on it)");
        if (split != null && !List.of("train", "test", "base").contains(split)) throw new UsageException("--split must be train, test or base, not '" + split + "'");
        if (split != null && !tasks.isEmpty()) throw new UsageException("give --split or --task, not both");
        if (split == null && tasks.isEmpty()) split = "base";
        return new Args(domain, agent, split, List.copyOf(tasks), model, userModel, judgeModel, provider, trials, seed, parallelism, options, agentStopToken, out);
    }

    private static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new UsageException(flag + " must be at least 1");
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " needs a number, not '" + v + "'");
        }
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws IOException {
        Args a = parse(argv);
        Tau2Domain domain = Tau2Domains.load(a.domain());
        List<TaskSpec> tasks = new ArrayList<>();
        if (a.tasks().isEmpty()) {
            tasks.addAll(domain.split(a.split()));
        } else {
            for (String id : a.tasks()) {
                try {
                    tasks.add(domain.task(id));
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
        }
        // One agent and one user model per trial: each trial has its own seed (upstream's set_seed).
        long[] seeds = TrialSeeds.of(a.seed(), a.trials());
        Candidate[] agentModels = new Candidate[a.trials()], userModels = new Candidate[a.trials()];
        for (int i = 0; i < a.trials(); i++) {
            if (a.model() != null) agentModels[i] = model(a.provider(), a.model(), seeds[i], true);
            if (a.userModel() != null) userModels[i] = model(a.provider(), a.userModel(), seeds[i], false);
        }
        NlJudge judge = a.judgeModel() != null
                ? new ModelNlJudge(a.provider() + ":" + a.judgeModel(), model(a.provider(), a.judgeModel(), null, false))
                : a.agent().equals("gold") ? ScriptedVerdictJudge.goldVerdict() : ScriptedVerdictJudge.allUnmet();

        out.printf("tau2 %s: %d task(s) x %d trial(s), agent %s, user %s, judge %s%s%n", a.domain(), tasks.size(), a.trials(),
                agentName(a), a.userModel() == null ? "scripted" : a.provider() + ":" + a.userModel(), judge.name(),
                a.options().enforceCommunicationProtocol() ? ", protocol enforced" : "");
        out.printf("%-6s %-5s %-6s %-22s %-5s %s%n", "task", "trial", "reward", "termination", "steps", "checks");
        List<PassHatK.Trial> trials = new ArrayList<>();
        long start = System.nanoTime();
        // Episodes are independent (worlds are values), so they may run concurrently; results print in order.
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(a.parallelism());
        List<java.util.concurrent.Future<EpisodeResult>> futures = new ArrayList<>();
        List<int[]> jobs = new ArrayList<>(); // [task index, trial]
        for (int ti = 0; ti < tasks.size(); ti++) {
            for (int trial = 1; trial <= a.trials(); trial++) {
                TaskSpec t = tasks.get(ti);
                Candidate agentModel = agentModels[trial - 1], userModel = userModels[trial - 1];
                AgentSide agent = switch (a.agent()) {
                    case "gold" -> new AgentSide("gold", new GoldReplayAgent(t), domain.agentSystemPrompt(), domain.environment().agentTools(), true);
                    case "stop" -> new AgentSide("stop", new StopAtOnceAgent(), domain.agentSystemPrompt(), domain.environment().agentTools(), true);
                    default -> new AgentSide(agentName(a), agentModel, domain.agentSystemPrompt(), domain.environment().agentTools(),
                            a.agentStopToken());
                };
                UserSide user = new UserSide(userModel == null ? "scripted-user" : a.provider() + ":" + a.userModel(),
                        userModel == null ? new ScriptedUser(t) : userModel, domain.userSystemPrompt().apply(t), domain.environment().userTools(t));
                futures.add(pool.submit(() -> Episode.run(domain.environment(), t, agent, user, judge, a.options())));
                jobs.add(new int[] {ti, trial});
            }
        }
        pool.shutdown();
        try (BufferedWriter log = a.out() == null ? null : Files.newBufferedWriter(a.out(), StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)) {
            for (int i = 0; i < futures.size(); i++) {
                TaskSpec t = tasks.get(jobs.get(i)[0]);
                int trial = jobs.get(i)[1];
                EpisodeResult r = await(futures.get(i));
                trials.add(new PassHatK.Trial(t.id(), r.reward(), r.infrastructureFailure()));
                out.printf("%-6s %-5d %-6s %-22s %-5d %s%n", t.id(), trial, r.infrastructureFailure() ? "-" : String.format(Locale.ROOT, "%.1f", r.reward()),
                        r.termination().value(), r.steps(), checks(r));
                if (log != null) {
                    PyDict rec = EpisodeJson.toJson(r).with("trial", PyInt.of(trial)).with("seed", PyInt.of(seeds[trial - 1]));
                    log.write(PyJson.dumps(rec, PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)));
                    log.newLine();
                    log.flush();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        PassHatK.Metrics m = PassHatK.compute(trials);
        out.printf(Locale.ROOT, "average reward: %.4f over %d episode(s) of %d task(s) (%d infrastructure failure(s) excluded) in %.1f s%n",
                m.avgReward(), m.evaluatedTrials(), m.tasks(), m.infrastructureFailures(), seconds);
        for (Map.Entry<Integer, Double> e : m.passHatK().entrySet()) out.printf(Locale.ROOT, "pass^%d: %.4f%n", e.getKey(), e.getValue());
        return 0;
    }

    private static EpisodeResult await(java.util.concurrent.Future<EpisodeResult> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            throw new IOException(e.getCause());
        }
    }

    private static String agentName(Args a) { return a.agent().equals("llm") ? a.provider() + ":" + a.model() : a.agent(); }

    /** The checks column: why an episode lost, or which components it passed. */
    static String checks(EpisodeResult r) {
        if (r.gradingFailure() != null) return "grading failed: " + r.gradingFailure();
        if (!r.grade().evaluated()) return "not evaluated" + (r.note() != null ? ": " + r.note() : "");
        List<String> failed = r.grade().failedBasisChecks();
        if (!failed.isEmpty()) return "failed " + String.join(", ", failed);
        if (r.grade().breakdown().isEmpty()) return r.grade().note() != null ? r.grade().note() : "pass";
        return "pass " + String.join(" ", r.grade().breakdown().keySet().stream().map(Enum::name).toList());
    }

    /**
     * A model with upstream's request parameters ({@code generate} in {@code src/tau2/utils/llm_utils.py}):
     * temperature 0; on OpenAI-compatible providers also the trial's {@code seed} (agent and user) and
     * {@code tool_choice: "auto"} (the agent, which always has tools).
     */
    private Candidate model(String provider, String model, Long seed, boolean agent) {
        ProviderOptions o = ProviderOptions.defaults(model).withTemperature(UPSTREAM_TEMPERATURE);
        if (Providers.openAiCompatible(provider)) {
            PyDict.Builder extra = PyDict.builder();
            if (agent) extra.put("tool_choice", "auto");
            if (seed != null) extra.put("seed", seed);
            o = o.withExtra(extra.build());
        }
        try {
            return Providers.fromEnvironment(env, provider, model, o);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
