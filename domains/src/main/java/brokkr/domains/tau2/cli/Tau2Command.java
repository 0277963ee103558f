package brokkr.domains.tau2.cli;

import brokkr.command.Cells;
import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.RecordFile;
import brokkr.conversation.Candidate;
import brokkr.domains.tau2.runner.Tau2Attempt;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.PassHatK;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.run.Sink;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code ./brokkr tau2 run}: a preset over the one evaluation path. It resolves the domain's benchmark
 * ({@code tau2-DOMAIN}, or upstream's short name {@code DOMAIN}: one lookup, {@link Tau2Domains#find}) in the
 * process's registry, turns its flags into EnvironmentDef options (run seed, limits,
 * protocol enforcement, the agent's stop token) and an AgentDef (a scripted candidate, or a model
 * with upstream's request settings), runs tasks x trials as cells ({@link Evaluation#evaluate}, trial
 * i = repetition i - 1) and prints one line per episode, the average reward and pass^k.
 */
public final class Tau2Command implements Command {
    /** The process's registry, and where provider settings and keys come from (the process environment, or a map in tests). */
    private final Registry registry;

    private final Map<String, String> env;

    public Tau2Command(CommandContext context) {
        this.registry = context.registry();
        this.env = context.env();
    }

    @Override
    public String name() {
        return "tau2";
    }

    @Override
    public String summary() {
        return "run tau2-bench episodes (upstream protocol and grading); re-grade upstream's own runs";
    }

    @Override
    public String usage() {
        return """
                usage: ./brokkr tau2 run --domain DOMAIN --agent gold|stop|llm [--split NAME] [--task ID]...
                                         [--model M] [--user-model M] [--judge-model M] [--provider P]
                                         [--trials N] [--seed N] [--parallelism N] [--enforce-protocol] [--agent-stop-token]
                                         [--max-steps N] [--max-errors N] [--timeout-seconds N] [--max-attempts N]
                                         [--out FILE.jsonl [--append|--force]]

                  --domain          tau2 domain: %s
                  --agent           gold: replays the task's gold actions (scripted); stop: stops at once (scripted);
                                    llm: upstream's LLMAgent on --model (never stops by itself, as upstream's)
                  --split           task split of the domain (default base; upstream's split_tasks.json names them:
                                    train, test, base; telecom's small and full need tasks_full.json);
                                    --task ID (repeatable) picks tasks instead
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
                  --timeout-seconds, --max-attempts  per model call: how long one attempt may take (default 120)
                                    and how often it is tried (default 5); operational, so changing them changes no
                                    content id (the same episodes, resumed or compared as before)
                  --harness         reference (default: upstream's agent) or loop (Brokkr's agent loop, one working
                                    conversation per episode); with loop, --action-space tools (JSON tools) or repl
                                    (one java_eval tool, the domain's tools as tau2.* Java methods in a sandbox JVM)
                                    and --repl-guidance shape|compute|inspect|typed (default shape)
                  --out             write one JSON object per episode (transcript, grade, model requests) as one
                                    line; a file that exists is refused unless --append (add to it; a last line cut
                                    short by a killed run is ended first, with a warning, so the next record is
                                    whole) or --force (replace it); a new file is created owner-only (0600)

                Exit status: 0 when every episode was graded; 3 when some episode has no verdict (model calls
                failed after their retries, or a harness error: not scored, counted on stderr); 2 for a usage
                error, an --out file that cannot be written or a provider that is unknown or not configured;
                1 for any other error.

                """.formatted(String.join(", ", Tau2Domains.names(registry))) + Tau2Evaluation.USAGE;
    }

    /**
     * The parsed flags; {@code domain} is upstream's short name, {@code options} are those the flags set, as
     * EnvironmentDef options; {@code callOptions} are the operational model options the flags set
     * ({@code timeout_seconds}, {@code max_attempts}: {@link ModelRef#OPERATIONAL_OPTIONS}), given to every
     * model of the run and part of no content id.
     */
    public record Args(
            String domain,
            String agent,
            String split,
            List<String> tasks,
            String model,
            String userModel,
            String judgeModel,
            String provider,
            int trials,
            int parallelism,
            PyDict options,
            Path out,
            Harness harness,
            String actionSpace,
            PyDict callOptions,
            RecordFile.Existing outMode) {
        public Args {
            callOptions = callOptions == null ? PyDict.empty() : callOptions;
            outMode = outMode == null ? RecordFile.Existing.REFUSE : outMode;
        }
    }

    /** The flags of {@code tau2 run} over {@code registry}'s tau2 domains; a bad flag is a {@link UsageException}. */
    public static Args parse(List<String> args, Registry registry) {
        if (args.isEmpty() || !args.get(0).equals("run"))
            throw new UsageException("expected the subcommand 'run' or 'evaluate'");
        String domain = null,
                agent = null,
                split = null,
                model = null,
                userModel = null,
                judgeModel = null,
                provider = "openai";
        List<String> tasks = new ArrayList<>();
        int trials = 1, parallelism = 1;
        // What the flags set, as options of every task's EnvironmentDef (over upstream's defaults).
        PyDict.Builder options = PyDict.builder();
        Path out = null;
        boolean agentStopToken = false;
        // Operational model options (how long a call may take, how often it is tried): no content id changes.
        PyDict.Builder callOptions = PyDict.builder();
        RecordFile.Existing outMode = null;
        String harness = null, actionSpace = "tools", replGuidance = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--enforce-protocol" -> options.put(Tau2Benchmark.ENFORCE_COMMUNICATION_PROTOCOL, PyBool.TRUE);
                case "--agent-stop-token" -> agentStopToken = true;
                case "--append", "--force" -> {
                    RecordFile.Existing m =
                            a.equals("--append") ? RecordFile.Existing.APPEND : RecordFile.Existing.REPLACE;
                    if (outMode != null && outMode != m) throw new UsageException("give --append or --force, not both");
                    outMode = m;
                }
                case "--domain",
                        "--agent",
                        "--split",
                        "--task",
                        "--model",
                        "--user-model",
                        "--judge-model",
                        "--provider",
                        "--trials",
                        "--seed",
                        "--parallelism",
                        "--max-steps",
                        "--max-errors",
                        "--out",
                        "--harness",
                        "--action-space",
                        "--repl-guidance",
                        "--timeout-seconds",
                        "--max-attempts" -> {
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
                                options.put(Tau2Benchmark.RUN_SEED, Long.parseLong(v));
                            } catch (NumberFormatException e) {
                                throw new UsageException("--seed needs an integer, not '" + v + "'");
                            }
                        }
                        case "--max-steps" -> options.put(Tau2Benchmark.MAX_STEPS, positive(a, v));
                        case "--max-errors" -> options.put(Tau2Benchmark.MAX_ERRORS, positive(a, v));
                        case "--out" -> out = Path.of(v);
                        case "--harness" -> harness = v;
                        case "--action-space" -> actionSpace = v;
                        case "--repl-guidance" -> replGuidance = v;
                        case "--timeout-seconds" -> callOptions.put(ModelRef.TIMEOUT_SECONDS, positive(a, v));
                        case "--max-attempts" -> callOptions.put(ModelRef.MAX_ATTEMPTS, positive(a, v));
                        default -> throw new AssertionError(a);
                    }
                }
                default -> throw new UsageException("unknown argument '" + a + "'");
            }
        }
        if (domain == null) throw new UsageException("--domain is required");
        Tau2Benchmark named = Tau2Domains.find(registry, domain);
        if (named == null)
            throw new UsageException("unknown domain '" + domain + "' (available: "
                    + String.join(", ", Tau2Domains.names(registry)) + ")");
        domain = named.domainName(); // tau2-retail and retail are one domain
        if (agent == null) throw new UsageException("--agent is required");
        if (!List.of("gold", "stop", "llm").contains(agent))
            throw new UsageException("--agent must be gold, stop or llm, not '" + agent + "'");
        if (agent.equals("llm") && model == null) throw new UsageException("--agent llm needs --model");
        if (!agent.equals("llm") && model != null)
            throw new UsageException("--model is the llm agent's model; --agent " + agent + " is scripted");
        if (agent.equals("llm") && userModel == null) {
            throw new UsageException(
                    "--agent llm needs --user-model (the scripted user only opens the conversation and says thanks)");
        }
        if (agent.equals("llm") && judgeModel == null) {
            throw new UsageException(
                    "--agent llm needs --judge-model (the scripted judge only knows the gold verdict)");
        }
        if (agentStopToken && !agent.equals("llm"))
            throw new UsageException("--agent-stop-token applies to --agent llm (scripted agents always stop on it)");
        if (split != null && split.isBlank()) throw new UsageException("--split needs a split name");
        // Which splits exist is the domain's to say (preset: upstream's "Invalid task split name" error, or telecom's
        // missing tasks).
        if (split != null && !tasks.isEmpty()) throw new UsageException("give --split or --task, not both");
        if (split == null && tasks.isEmpty()) split = "base";
        if (agentStopToken) options.put(Tau2Benchmark.AGENT_STOP_TOKEN, PyBool.TRUE);
        Harness h;
        try {
            h = Harness.of(harness, actionSpace, replGuidance, PyDict.empty());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (!h.loop() && !actionSpace.equals("tools"))
            throw new UsageException("--action-space " + actionSpace + " needs --harness loop");
        if (outMode != null && out == null)
            throw new UsageException(
                    (outMode == RecordFile.Existing.APPEND ? "--append" : "--force") + " goes with --out");
        return new Args(
                domain,
                agent,
                split,
                List.copyOf(tasks),
                model,
                userModel,
                judgeModel,
                provider,
                trials,
                parallelism,
                options.build(),
                out,
                h,
                actionSpace,
                callOptions.build(),
                outMode);
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

    /**
     * What a run evaluates, as the one planner made it from the flags (the same cells the equivalent
     * experiment file plans): the benchmark, the candidate, the other roles' models, the tasks'
     * definitions, and the plan itself (task × trial, models from the registry's resolver with this
     * command's environment).
     */
    public record Preset(
            BenchmarkProvider benchmark,
            AgentDef agent,
            Map<String, ModelRef> roles,
            List<EnvironmentDef> environments,
            Plan plan) {}

    /** The flags as a plan: unknown tasks and scripted models, and a harness the domain does not host, are usage errors. */
    public static Preset preset(Args a, Registry registry) {
        return preset(a, registry, Map.of());
    }

    static Preset preset(Args a, Registry registry, Map<String, String> env) {
        BenchmarkProvider bench = registry.benchmark("tau2-" + a.domain());
        ModelRef agentModel = a.agent().equals("llm")
                ? withCallOptions(Tau2Benchmark.upstreamModel(a.provider(), a.model(), Evidence.AGENT), a)
                : new ModelRef(BenchmarkProvider.SCRIPTED, a.agent());
        String label = a.agent().equals("llm") ? a.provider() + ":" + a.model() : a.agent();
        Map<String, ModelRef> roles = new LinkedHashMap<>(); // none named: the benchmark's scripted user and judge
        if (a.userModel() != null)
            roles.put("user", withCallOptions(Tau2Benchmark.upstreamModel(a.provider(), a.userModel(), "user"), a));
        if (a.judgeModel() != null)
            roles.put("judge", withCallOptions(Tau2Benchmark.upstreamModel(a.provider(), a.judgeModel(), "judge"), a));
        Plan plan;
        try {
            List<String> tasks = a.tasks().isEmpty() ? bench.tasks(a.split()) : a.tasks();
            plan = Planner.cells(
                    bench,
                    tasks,
                    roles,
                    a.options(),
                    List.of(new ExperimentSpec.CandidateSpec(label, agentModel, a.actionSpace(), null, a.harness())),
                    a.trials(),
                    Cells.providers(
                            registry,
                            env)); // providers are checked when the plan is opened: an input error, not a usage one
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        List<EnvironmentDef> envs = new ArrayList<>();
        for (Plan.Unit u : plan.units())
            if (u.cell().repetition() == 0) envs.add(u.cell().env());
        return new Preset(bench, plan.units().getFirst().cell().agent(), Map.copyOf(roles), List.copyOf(envs), plan);
    }

    private static ModelRef withCallOptions(ModelRef m, Args a) {
        PyDict o = m.options();
        for (var e : a.callOptions().entries()) o = o.with(e.getKey(), e.getValue());
        return new ModelRef(m.provider(), m.model(), o);
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (!argv.isEmpty() && argv.get(0).equals("evaluate"))
            return Tau2Evaluation.run(argv.subList(1, argv.size()), registry, env, out, err);
        Args a = parse(argv, registry);
        Preset p = preset(a, registry, env);
        try {
            Planner.open(
                    p.plan(),
                    ExperimentSpec.CacheSpec
                            .NONE); // a bad provider configuration is an input error before any episode runs
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        Function<ModelRef, Candidate> models = p.plan().models();
        // The record file is opened before anything runs: one that cannot be written is the command's error.
        try (RecordFile log = a.out() == null ? null : RecordFile.open(a.out(), "--out", a.outMode(), err)) {
            return episodes(a, p, models, log, out, err);
        }
    }

    /** Runs the preset's cells, prints a line per episode and the summary, appends each episode to {@code log}. */
    private int episodes(
            Args a, Preset p, Function<ModelRef, Candidate> models, RecordFile log, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        BenchmarkProvider bench = p.benchmark();
        AgentDef agent = p.agent();
        List<EnvironmentDef> envs = p.environments();
        String agentName = a.agent().equals("llm") ? a.provider() + ":" + a.model() : a.agent();
        String judgeName = a.judgeModel() != null
                ? a.provider() + ":" + a.judgeModel()
                : Tau2Benchmark.judgeName(
                        envs.isEmpty()
                                ? Tau2Benchmark.DEFAULT_JUDGE
                                : envs.getFirst().models().get("judge"),
                        agent);
        out.printf(
                "tau2 %s: %d task(s) x %d trial(s), agent %s, user %s, judge %s%s%n",
                a.domain(),
                envs.size(),
                a.trials(),
                agentName,
                a.userModel() == null ? "scripted" : a.provider() + ":" + a.userModel(),
                judgeName,
                PyBool.TRUE.equals(a.options().get(Tau2Benchmark.ENFORCE_COMMUNICATION_PROTOCOL))
                        ? ", protocol enforced"
                        : "");
        out.printf("%-6s %-5s %-6s %-22s %-5s %s%n", "task", "trial", "reward", "termination", "steps", "checks");
        String userName = a.userModel() == null ? "scripted-user" : a.provider() + ":" + a.userModel();
        List<Attempt> attempts = new ArrayList<>();
        long start = System.nanoTime();
        // Episodes are independent (worlds are values), so they may run concurrently; results print in order.
        try {
            Runner.run(p.plan(), Policy.of(a.parallelism()), Sink.ordered(attempt -> {
                Tau2Attempt r = new Tau2Attempt(attempt);
                int trial = attempt.repetition() + 1;
                attempts.add(attempt);
                out.printf(
                        "%-6s %-5d %-6s %-22s %-5d %s%n",
                        r.taskId(),
                        trial,
                        r.infrastructureFailure() ? "-" : String.format(Locale.ROOT, "%.1f", r.reward()),
                        r.termination().isEmpty() ? "-" : r.termination(),
                        r.steps(),
                        r.checks());
                if (log == null) return;
                try {
                    log.append(PyJson.dumps(
                            r.toJson(agentName, userName, judgeName, trial),
                            PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
            if (Thread.interrupted()) throw new InterruptedException("interrupted while running episodes");
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // Upstream's compute_metrics: infrastructure failures excluded; pass^k up to the fewest trials of any task.
        List<Attempt> graded = attempts.stream().filter(Attempt::completed).toList();
        double sum = 0;
        Map<String, int[]> perTask = new TreeMap<>(); // [trials, successes]
        for (Attempt g : graded) {
            sum += g.reward();
            int[] c = perTask.computeIfAbsent(g.taskId(), id -> new int[2]);
            c[0]++;
            if (g.success()) c[1]++;
        }
        List<PassHatK.TaskTrials> trials = perTask.values().stream()
                .map(c -> new PassHatK.TaskTrials(c[0], c[1]))
                .toList();
        if (graded.isEmpty()) {
            // Nothing scored is no average of 0: say so, and the exit status below says it too.
            out.printf(
                    Locale.ROOT,
                    "average reward: - (nothing scored: none of %d episode(s) has a verdict) in %.1f s%n",
                    attempts.size(),
                    seconds);
        } else {
            out.printf(
                    Locale.ROOT,
                    "average reward: %.4f over %d episode(s) of %d task(s) (%d infrastructure failure(s) excluded) in %.1f s%n",
                    sum / graded.size(),
                    graded.size(),
                    perTask.size(),
                    attempts.size() - graded.size(),
                    seconds);
        }
        List<Double> curve = PassHatK.curve(trials);
        for (int k = 1; k <= curve.size(); k++) out.printf(Locale.ROOT, "pass^%d: %.4f%n", k, curve.get(k - 1));
        List<Attempt> unscored = attempts.stream().filter(x -> !x.completed()).toList();
        if (attempts.isEmpty()) {
            err.printf("brokkr tau2: no episode ran (nothing scored); exit status %d%n", EXIT_NO_VERDICT);
            return EXIT_NO_VERDICT;
        }
        if (unscored.isEmpty()) return 0;
        // No verdict is not a score of 0: the run is incomplete, and its exit status says so.
        Attempt first = unscored.getFirst();
        err.printf(
                Locale.ROOT,
                "brokkr tau2: %d of %d episode(s) have no verdict (not scored; first: task %s trial %d: %s); exit status %d%n",
                unscored.size(),
                attempts.size(),
                first.taskId(),
                first.repetition() + 1,
                first.error(),
                EXIT_NO_VERDICT);
        return EXIT_NO_VERDICT;
    }
}
