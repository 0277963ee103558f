package brokkr.cli;

import brokkr.command.Command;
import brokkr.eval.Report;
import brokkr.experiment.BenchmarkReports;
import brokkr.experiment.CostEstimate;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.ExperimentStore;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProgressListener;
import brokkr.experiment.Registry;
import brokkr.experiment.Regrade;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoreCopy;
import brokkr.experiment.StoreLocation;
import brokkr.render.experiment.ScorecardTables;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableJson;
import brokkr.render.table.TableText;
import brokkr.run.Cancellation;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code ./brokkr experiment run|list|show|attempts|checks|transcript|verify-world|regrade}: runs an experiment
 * file into a directory (resuming what is there), lists experiment directories and inspects a
 * directory's store (read-only). Benchmarks and model providers
 * are those of the process's registry ({@link Registry#process()}), result formats the families'.
 */
public final class ExperimentCommand implements Command {
    private final Registry registry;
    /** {@code export} and {@code import}: the families' result formats. */
    private final ExperimentInterop interop;

    /** The process's environment: where {@code run} reads {@code OTEL_EXPORTER_OTLP_ENDPOINT} and its kin. */
    private final Map<String, String> env;

    public ExperimentCommand(Registry registry, ExperimentInterop interop) {
        this(registry, interop, Map.of());
    }

    public ExperimentCommand(Registry registry, ExperimentInterop interop, Map<String, String> env) {
        this.registry = registry;
        this.interop = interop;
        this.env = Map.copyOf(env);
    }

    @Override
    public String name() {
        return "experiment";
    }

    @Override
    public String summary() {
        return "run an experiment (tasks x candidates x repetitions), resume it, show its scorecard";
    }

    @Override
    public String usage() {
        return interop.withUsage("""
                usage: ./brokkr experiment run FILE [--dir DIR | --store URL] [--no-progress] [--verbose] [--allow-endpoint-change]
                                                 [--dry-run [--estimate-from DIR]] [--otel URL|file:PATH|off] [--otel-content]
                       ./brokkr experiment list [DIR|URL...] [--format text|csv|json]
                       ./brokkr experiment show DIR [--summary] [--tasks] [--checks] [--format text|csv|json] [--limit N]
                       ./brokkr experiment attempts DIR [--all] [--task ID]... [--candidate NAME]... [--failed] [--format F] [--limit N]
                       ./brokkr experiment checks DIR [--format F] [--limit N]
                       ./brokkr experiment compare DIR [DIR2] [--a C1] [--b C2] [--chart FILE.png|.svg] [--format F]
                       ./brokkr experiment transcript DIR ATTEMPT_ID [--json]
                       ./brokkr experiment verify-world DIR [ATTEMPT_ID]
                       ./brokkr experiment regrade DIR --judge PROVIDER:MODEL [--parallelism N] [--cache]
                       ./brokkr experiment copy SRC DST

                  DIR         an experiment directory (its store DIR/experiment.db, SQLite) or a PostgreSQL store
                              URL postgresql://HOST[:PORT]/DB[?schema=S] (default schema brokkr): every command
                              below reads either. Credentials come only from PGUSER / PGPASSWORD or ~/.pgpass
                              (PGPASSFILE), never from the URL: a URL carrying a password is refused

                  run         run the experiment in FILE (JSON, or YAML when it ends in .yaml/.yml) into DIR
                              (default: the file's store: key, else .brokkr/experiments/NAME), or into the
                              store --store URL; running it again resumes: completed cells
                              are skipped, infrastructure failures are retried up to max_infra_retries;
                              prints the summary and failures by check; --verbose adds the runner's timings
                              (cells' wall time, store cost per attempt). Every attempt records the base URL
                              each model was reached at (never credentials); a resume whose models are reached
                              at another one is refused, naming both, unless --allow-endpoint-change.
                              --otel URL sends OpenTelemetry GenAI spans (invoke_agent per cell, chat per model
                              call, execute_tool per tool call) to an OTLP/HTTP endpoint (http://127.0.0.1:4318;
                              default: OTEL_EXPORTER_OTLP_ENDPOINT, else none); --otel file:PATH appends them to
                              PATH, one span a JSON line; --otel-content adds prompts, completions and tool
                              payloads (never keys)
                  copy        the whole store SRC (cells, attempts with their ids, evidence texts, probes, regrades,
                              cached responses) into the new store DST, byte for byte: SQLite to PostgreSQL and
                              back; DST must hold no experiment
                  list        every experiment directory in or under each DIR (default .brokkr/experiments)
                  show        the summary (and the benchmark's own report, e.g. bfcl's per category); --tasks
                              per-task results, --checks failures by check instead (--summary to add it back)
                  attempts    the attempts of the current cells (--all: also of earlier definitions), oldest
                              first; --task, --candidate (repeatable) and --failed (not a success: reward
                              below 1 or no verdict) keep only those
                  checks      failures by check and candidate (as show --checks)
                  compare     paired comparison of candidates a and b on the tasks both scored (of DIR; or a of
                              DIR and b of DIR2, aligned by task id and trial; tasks left out are listed):
                              per metric the mean difference a - b, its paired se and 95% interval, paired t
                              and sign-flip p-values (exact up to 20 tasks, else seeded Monte Carlo), the
                              minimum detectable effect at 80% power; per task the differences; --chart
                              writes the per-task differences as a bar chart. Default candidates: DIR's only
                              two; across directories DIR's only one and the same name (or the only one) in DIR2
                  transcript  one attempt: its cell, grade breakdown, model calls and the dialogue (roles,
                              text, tool calls and results); --json: the whole record as stored
                  verify-world  replay the attempt's (without ID: every completed attempt's) tool calls
                              from the initial world and compare the final world's hash with the
                              recorded one (exit 1 on a mismatch)
                  regrade     judge the model-judged checks (tau2: NL assertions) of every completed attempt
                              again from its record with the judge PROVIDER:MODEL (keys and base URLs from the
                              environment; N calls at once, default 4), calling only the judge; the new verdicts
                              go into DIR's regrade table beside the recorded ones (never overwriting them);
                              prints assertions and episode verdicts agreeing and every disagreement (exit 3
                              when the judge gave some attempt no verdict); --cache: the judge's calls go
                              through DIR's model-call cache (the same records judged again send nothing)
                  --format    text (aligned, for reading; the default), csv or json (for programs: numbers
                              unrounded, a missing value empty or null); --limit N: at most N rows per table

                columns (a dash: no value, e.g. no attempt of the candidate was scored)
                  benchmark, candidate  the domain and the candidate's id in the experiment file
                  tasks       tasks with at least one completed attempt
                  attempts    completed attempts: the ones every metric is computed from
                  infra_failures  attempts without a verdict (provider out of retries, timeout, harness
                              error): counted, never scored, retried when the experiment runs again
                  trials      scored trials per task (a range when tasks differ)
                  avg_reward  mean reward over completed attempts
                  se, t95_lo, t95_hi  the standard error clustered by task (trials of a task are correlated) and
                              the 95% t interval (tasks-1 degrees of freedom), clipped to [0, 1] for rates
                  metric, value (statistics)  avg_reward and pass^1..n with se and t95 as above, and
                  wilson95_lo, wilson95_hi  a Wilson-type interval (effective sample size p(1-p)/var, t quantile
                              for z; Korn & Graubard 1998); read: which interval to read (wilson with fewer
                              than 30 tasks or a rate within 0.1 of 0 or 1, else t); infra_excluded: the
                              infrastructure failures left out of every metric and denominator
                  a, b, diff, p_t, p_signflip, mde80 (compare)  each side's mean over the compared tasks, the
                              mean difference a - b, the p-values, the minimum detectable effect at 80% power
                  pass^k      upstream tau2's pass^k: per task C(successes, k) / C(trials, k), the chance
                              that k trials all succeed (reward 1), averaged over tasks; k up to the
                              fewest trials of any task
                  in_tok/ep, out_tok/ep, steps/ep, calls/ep, req_chars/ep  means per completed episode: the
                              candidate's own input and output tokens (user simulator and judge apart; a dash
                              when its model reports none, as scripted models), its model steps, the tool calls
                              the protocol recorded (the domain's calls, JSON tools or REPL code alike) and the
                              characters of the requests its model was sent (what input tokens grow with);
                              steps and characters as the protocol counted them (tau2) or else as its model
                              calls were recorded (a dash when neither: a gold replay asks no model)
                  usd_agent/ep, usd_user/ep, usd_judge/ep  US dollars per completed episode by role, priced
                              from the recorded tokens (the price table, prices.yaml, the file's prices:); the
                              candidate's cost is usd_agent/ep, the user simulator's and judge's are the
                              evaluation's; a dash when a model has no price, never 0
                  mean_duration_ms  mean wall time of a completed attempt
                  trust       completed attempts by how far their verdict can be trusted: deterministic
                              (graded by code over the observed world and transcript), model_judged (a
                              check was decided by a judge model), self_reported (the grade rests on what
                              the run reported about itself, e.g. a scripted judge told the gold verdict)
                  trials, successes (per task)  completed attempts of the task, and of them with reward 1
                  evaluated, failed, fail_rate (checks)  completed attempts that evaluated the check,
                              of them failed, failed / evaluated
                  id, trial (attempts)  the attempt's id (for transcript, verify-world) and its cell's trial,
                              counted from 1 (the store's repetition column counts from 0)
                  status      completed, or infrastructure_failure
                  reward, failed_checks, duration_ms, error  the attempt's (error abbreviated)
                  dir, name, domains, candidates, cells_done, cells, last_run_utc (list)  the directory,
                              the experiment last run in it, its benchmarks and candidates, its current
                              cells with a completed attempt and all its current cells, its last run's end

                DIR/experiment.db is SQLite: any SQL tool reads it (sqlite3 -readonly DIR/experiment.db); its views
                  attempts_v, checks_v, cells_v, scores_v, agents_v, environments_v name candidates and tasks, count
                  trials from 1 and give UTC times (README: every table and view with its columns).

                exit codes: 0 done (run: every cell has a verdict); 1 an error (the store is unreadable, not a
                  Brokkr store, corrupt, or was deleted or replaced during the run); 2 a usage error;
                  3 (run) the run ended with cells without a verdict: infrastructure failures (retried when the
                  experiment is run again, up to max_infra_retries) or cells out of retries. Inspection opens
                  the store read-only and changes nothing in DIR (a read-only directory is fine).

                experiment file keys: name, domain + split|tasks [+ options] (or domains: [{name, split|tasks, options}]),
                  candidates: [{id, provider, model, action_space, options, system_prompt|system_prompt_file, cache,
                  harness, repl_guidance, harness_options}], repetitions, parallelism,
                  providers: {NAME: {concurrency, rate_per_second}}, user / judge: {provider, model, options, cache},
                  models: {ROLE: {provider, model, options, cache}} (any other role a benchmark names, as user and
                  judge), max_infra_retries, cell_timeout_seconds, progress, store (postgresql://HOST[:PORT]/DB[?schema=S]
                  instead of --dir; credentials from PGPASSWORD or ~/.pgpass only), cache_file (cache: true serves a request
                  identical to one answered before, same model, exact body and trial, from DIR's model_cache table or
                  the shared cache_file; hits are recorded), prices: {PROVIDER:MODEL: {input, output, cache_read,
                  cache_write, since}} (USD per million tokens), budget: {max_cost_usd, max_tokens, on_budget:
                  finish|cancel, per_cell: {max_cost_usd, max_tokens}} (operational: no content id changes). harness: reference (the benchmark's agent) or loop
                  (Brokkr's agent loop), action_space tools or repl, repl_guidance shape|compute|inspect|typed,
                  harness_options: {max_turn_steps, output_limit, eval_timeout_seconds, heap_mb}. A model's options
                  timeout_seconds, max_attempts and max_response_bytes are operational: no content id changes; the
                  others are part of the candidate (temperature, max_tokens, parallel_tool_calls, reasoning_effort; for
                  provider openai-responses also reasoning_summary, strict_tools, stream; any other is sent as is)""");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty()) throw new UsageException("missing subcommand");
        List<String> rest = new ArrayList<>(args.subList(1, args.size()));
        return switch (args.getFirst()) {
            case "run" ->
                rest.contains("--workers")
                        ? ExperimentFleet.register(registry, rest, out, err)
                        : runExperiment(rest, out, err);
            case "status" -> ExperimentFleet.status(rest, out, err);
            case "list" -> list(rest, out, err);
            case "show" -> show(rest, out, err);
            case "attempts" -> attempts(rest, out, err);
            case "compare" -> ExperimentCompare.run(rest, out, err);
            case "copy" -> copy(rest, out);
            case "export" -> interop.export(rest, out, err);
            case "import" -> interop.importFile(rest, out, err);
            case "checks" -> {
                TableOutput o = TableOutput.take(rest);
                yield withStore(
                        rest,
                        1,
                        "checks DIR " + TableOutput.OPTIONS,
                        (store, a) -> o.print(
                                out,
                                err,
                                List.of(new TableOutput.Section(
                                        "checks", null, ScorecardTables.checks(Scorecard.of(store)))),
                                PyDict.empty()));
            }
            case "transcript" -> {
                boolean json = rest.remove("--json");
                yield withStore(rest, 2, "transcript DIR ATTEMPT_ID [--json]", (store, a) -> {
                    long id = attemptId(a.get(1));
                    try {
                        out.print(
                                json
                                        ? TableOutput.json(Inspect.record(store, id)) + "\n"
                                        : Inspect.transcript(store, id));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                });
            }
            case "verify-world" -> {
                int[] code = {0};
                if (rest.size() == 1) {
                    // Every completed attempt of the current cells.
                    withStore(rest, 1, "verify-world DIR [ATTEMPT_ID]", (store, a) -> {
                        int ok = 0, bad = 0;
                        for (var attempt : store.attempts(true, false)) {
                            if (!attempt.completed()) continue;
                            Inspect.WorldCheck w;
                            try {
                                w = Inspect.verifyWorld(store, registry, attempt.id());
                            } catch (ExperimentQuery.DamagedRecordException e) {
                                bad++; // the others are still verified; the damaged one is named
                                out.println("DAMAGED attempt " + attempt.id() + ": "
                                        + e.damaged().reason());
                                continue;
                            } catch (IllegalArgumentException e) {
                                throw new UsageException(e.getMessage());
                            }
                            if (w.matches()) ok++;
                            else {
                                bad++;
                                out.println("MISMATCH attempt " + attempt.id() + ": recorded " + w.recorded()
                                        + ", replayed " + w.replayed());
                            }
                        }
                        out.println(ok + " attempts verified, " + bad + " mismatches");
                        code[0] = bad == 0 ? 0 : 1;
                    });
                    yield code[0];
                }
                withStore(rest, 2, "verify-world DIR [ATTEMPT_ID]", (store, a) -> {
                    Inspect.WorldCheck w;
                    try {
                        w = Inspect.verifyWorld(store, registry, attemptId(a.get(1)));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                    out.println("recorded final world " + w.recorded());
                    out.println("replayed final world " + w.replayed());
                    out.println(
                            w.matches()
                                    ? "verified: the replay reproduces the recorded world"
                                    : "MISMATCH: the record does not reproduce its world");
                    code[0] = w.matches() ? 0 : 1;
                });
                yield code[0];
            }
            case "regrade" -> new ExperimentRegrade(() -> registry).run(rest, out, err);
            default -> throw new UsageException("unknown subcommand '" + args.getFirst() + "'");
        };
    }

    private int runExperiment(List<String> args, PrintStream out, PrintStream err) {
        StoreLocation dir = null;
        boolean progress = true, verbose = false, allowEndpointChange = false, dryRun = false;
        Path estimateFrom = null;
        String otel = null;
        boolean otelContent = false;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--dir" -> {
                    if (i + 1 >= args.size()) throw new UsageException("--dir needs a directory");
                    if (dir != null) throw new UsageException("give --dir or --store, once");
                    dir = StoreLocation.of(Path.of(args.get(++i)));
                }
                case "--store" -> {
                    if (i + 1 >= args.size())
                        throw new UsageException(
                                "--store needs a store: postgresql://HOST[:PORT]/DB[?schema=S] or a DIR");
                    if (dir != null) throw new UsageException("give --dir or --store, once");
                    try {
                        dir = StoreLocation.parse(args.get(++i));
                    } catch (IllegalArgumentException e) {
                        throw new InputException(e.getMessage());
                    }
                }
                case "--no-progress" -> progress = false;
                case "--verbose" -> verbose = true;
                case "--allow-endpoint-change" -> allowEndpointChange = true;
                case "--otel" -> {
                    if (i + 1 >= args.size())
                        throw new UsageException("--otel needs a target: an OTLP/HTTP URL, file:PATH or off");
                    otel = args.get(++i);
                }
                case "--otel-content" -> otelContent = true;
                case "--dry-run" -> dryRun = true;
                case "--estimate-from" -> {
                    if (i + 1 >= args.size()) throw new UsageException("--estimate-from needs an experiment directory");
                    estimateFrom = Path.of(args.get(++i));
                }
                default -> {
                    if (a.startsWith("-")) throw new UsageException("unknown option " + a);
                    positional.add(a);
                }
            }
        }
        if (positional.size() != 1) throw new UsageException("run needs exactly one experiment FILE");
        Path file = Path.of(positional.getFirst());
        // What the file says (or that it is not there) is the input's error: its message, not the synopsis.
        if (!Files.isRegularFile(file)) throw new InputException("no experiment file " + file);
        ExperimentSpec spec;
        try {
            spec = ExperimentSpec.read(file);
        } catch (ExperimentSpec.SpecException e) {
            throw new InputException(e.getMessage());
        }
        if (!progress) spec = spec.withProgress(false);
        String specStore = dir == null ? ExperimentSpec.store(file) : null;
        if (specStore != null) {
            try {
                dir = StoreLocation.parse(specStore);
            } catch (IllegalArgumentException e) {
                throw new InputException(file + ": store: " + e.getMessage());
            }
        }
        if (dir == null) dir = StoreLocation.of(Path.of(".brokkr", "experiments", spec.name()));
        if (estimateFrom != null && !dryRun) throw new UsageException("--estimate-from goes with --dry-run");
        if (dryRun) return dryRun(spec, dir, estimateFrom, out);
        Experiments.Result r;
        Tracing tracing;
        try {
            tracing = Tracing.open(otel, otelContent, env);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        try (tracing) {
            r = Experiments.run(
                    spec,
                    dir,
                    registry,
                    spec.progress() ? new TerminalProgress() : ProgressListener.NONE,
                    new Cancellation(),
                    allowEndpointChange,
                    tracing.trace());
        } catch (ExperimentSpec.SpecException | Experiments.EndpointChangedException e) {
            throw new InputException(e.getMessage()); // a missing key, a changed endpoint: exit 2, the message only
        }
        if (tracing.on()) err.println("traces: " + tracing.target());
        err.println(r.summary());
        if (verbose) err.println(r.profile());
        List<BenchmarkReports.CandidateReport> reports;
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            reports = BenchmarkReports.of(store, registry);
        }
        out.println(head(spec.name(), dir.display(), r.scorecard()));
        out.println();
        printSummary(out, r.scorecard(), reports);
        PlainTable checks = ScorecardTables.checks(r.scorecard());
        if (checks.rowCount() > 0) out.print("\nchecks (failed of evaluated)\n" + TableText.aligned(checks));
        out.println("\nper task: experiment show " + dir.display() + " --tasks; every attempt: experiment attempts "
                + dir.display());
        if (r.complete()) return 0;
        err.println("brokkr experiment: " + r.withoutVerdict() + " of " + r.cells() + " cells have no verdict ("
                + r.exhausted()
                + " out of infrastructure retries"
                + (r.withoutVerdict() > r.exhausted()
                        ? ", " + (r.withoutVerdict() - r.exhausted()) + " retried when the experiment is run again"
                        : "")
                + ")");
        return EXIT_NO_VERDICT;
    }

    /**
     * {@code run --dry-run}: the pending cells, their models and the estimated dollars (the price table times a
     * previous experiment's mean tokens per episode), running nothing and opening no model.
     */
    private int dryRun(ExperimentSpec spec, StoreLocation dir, Path estimateFrom, PrintStream out) {
        // Without a previous experiment, the benchmarks' typical tokens shipped with Brokkr (measured on gold runs).
        CostEstimate.Typical typical = CostEstimate.Typical.domain();
        if (estimateFrom != null) {
            if (!Files.isDirectory(estimateFrom)) throw new InputException("no experiment directory " + estimateFrom);
            try (ExperimentQuery q = ExperimentQuery.open(estimateFrom)) {
                typical = CostEstimate.Typical.of(q);
            }
        }
        CostEstimate e;
        try {
            e = Experiments.dryRun(spec, dir, registry, typical);
        } catch (ExperimentSpec.SpecException ex) {
            throw new InputException(ex.getMessage());
        }
        PlainTable.Builder bench = PlainTable.text("benchmark"),
                cand = PlainTable.text("candidate"),
                models = PlainTable.text("models");
        PlainTable.Builder cells = PlainTable.integers("cells");
        PlainTable.Builder perEp = PlainTable.doubles("est_usd/ep"), usd = PlainTable.doubles("est_usd");
        int total = 0;
        for (CostEstimate.Row r : e.rows()) {
            bench.append(r.benchmark());
            cand.append(r.candidate());
            cells.append(r.cells());
            total += r.cells();
            StringBuilder m = new StringBuilder();
            r.models()
                    .forEach((role, ref) -> m.append(m.isEmpty() ? "" : " ")
                            .append(role)
                            .append("=")
                            .append(ref));
            models.append(m.toString());
            perEp.append(r.usdPerEpisode());
            usd.append(r.usd());
        }
        out.println("experiment " + spec.name() + " in " + dir.display() + ": dry run, nothing is run");
        out.print(TableText.aligned(PlainTable.of("dry run", bench, cand, cells, models, perEp, usd)));
        out.println(total + " cells to run; estimated cost "
                + (Double.isNaN(e.totalUsd())
                        ? "– (a model without a price, or no typical tokens"
                                + (estimateFrom == null ? ": give --estimate-from DIR, a previous experiment" : "")
                                + ")"
                        : String.format(java.util.Locale.ROOT, "$%.4f", e.totalUsd())));
        if (estimateFrom == null)
            out.println("the estimate is of the benchmark's typical tokens per episode, not of this experiment's: "
                    + "the agent's requests of the gold trajectories at 4 characters a token (known for "
                    + String.join(", ", typical.benchmarks())
                    + "; the user simulator's and judge's are not, so a row that calls them is a dash); "
                    + "--estimate-from DIR prices a previous experiment's own means");
        return 0;
    }

    /** The first line of a scorecard's text: which experiment, where, and its cells. */
    private static String head(String name, String dir, Scorecard card) {
        return "experiment " + name + " in " + dir + ": " + card.cells() + " cells, " + card.pendingCells()
                + " without a completed attempt (infrastructure failures enter no metric)";
    }

    /** The summary table and the benchmarks' own reports, as text. */
    private static void printSummary(PrintStream out, Scorecard card, List<BenchmarkReports.CandidateReport> reports) {
        out.print(TableText.aligned(ScorecardTables.summary(card)));
        PlainTable statistics = ScorecardTables.statistics(card);
        if (statistics.rowCount() > 0) out.print("\n" + ScorecardTables.statisticsText(statistics));
        List<BenchmarkReports.CandidateReport> left = new ArrayList<>(reports);
        while (!left.isEmpty()) {
            BenchmarkReports.CandidateReport r = left.removeFirst();
            // A benchmark's notes once, under its last candidate's report.
            boolean last = left.stream()
                    .noneMatch(x -> x.benchmark().equals(r.benchmark())
                            && x.report().title().equals(r.report().title()));
            out.print("\n" + ScorecardTables.reportText(r, last));
        }
    }

    /** {@code experiment show}: the summary by default; the sections asked for otherwise. */
    private int show(List<String> args, PrintStream out, PrintStream err) throws Exception {
        TableOutput o = TableOutput.take(args);
        boolean summary = args.remove("--summary"), tasks = args.remove("--tasks"), checks = args.remove("--checks");
        if (!summary && !tasks && !checks) summary = true;
        boolean withSummary = summary, withTasks = tasks, withChecks = checks;
        rejectOptions(args);
        return withStore(args, 1, "show DIR [--summary] [--tasks] [--checks] " + TableOutput.OPTIONS, (store, a) -> {
            String dir = store.location().display();
            Scorecard card = Scorecard.of(store);
            String name = store.experiment().map(Map.Entry::getKey).orElse("?");
            List<BenchmarkReports.CandidateReport> reports =
                    withSummary ? BenchmarkReports.of(store, registry) : List.of();
            List<TableOutput.Section> sections = TableOutput.sections();
            if (o.format() == TableOutput.Format.TEXT) {
                out.println(head(name, dir, card));
                if (withSummary) {
                    out.println();
                    printSummary(out, card, reports);
                }
            } else if (withSummary) {
                sections.add(new TableOutput.Section("summary", "summary", ScorecardTables.summary(card)));
                sections.add(new TableOutput.Section("statistics", "statistics", ScorecardTables.statistics(card)));
                for (BenchmarkReports.CandidateReport r : reports) {
                    String title = r.benchmark() + " / " + r.candidate() + ": "
                            + r.report().title();
                    sections.add(new TableOutput.Section("report", title, ScorecardTables.report(r.report())));
                    if (!r.report().figures().isEmpty()) {
                        sections.add(new TableOutput.Section(
                                "report", title + ": figures", ScorecardTables.figures(r.report())));
                    }
                }
            }
            List<TableOutput.Section> more = TableOutput.sections();
            if (withTasks) more.add(new TableOutput.Section("tasks", "per task", ScorecardTables.tasks(card)));
            if (withChecks)
                more.add(new TableOutput.Section(
                        "checks", "checks (failed of evaluated)", ScorecardTables.checks(card)));
            if (o.format() == TableOutput.Format.TEXT) {
                if (!more.isEmpty()) out.println();
                o.print(out, err, more, PyDict.empty());
                if (!withTasks || !withChecks) {
                    out.println("\n(" + (withTasks ? "" : "--tasks: per task; ")
                            + (withChecks ? "" : "--checks: failures by check; ")
                            + "experiment attempts DIR: every attempt; --help explains every column)");
                }
            } else if (o.format() == TableOutput.Format.JSON) {
                // Reports are whole objects in JSON (their figures by name), not loose tables.
                List<TableOutput.Section> tables = new ArrayList<>(
                        sections.stream().filter(x -> !x.key().equals("report")).toList());
                tables.addAll(more);
                PyDict.Builder fields = PyDict.builder()
                        .put("experiment", name)
                        .put("dir", dir)
                        .put("cells", card.cells())
                        .put("without_completed_attempt", card.pendingCells());
                if (withSummary) fields.put("reports", reportsJson(reports));
                o.print(out, err, tables, fields.build());
            } else {
                sections.addAll(more);
                o.print(out, err, sections, PyDict.empty());
            }
        });
    }

    private static PyList reportsJson(List<BenchmarkReports.CandidateReport> reports) {
        List<Value> out = new ArrayList<>();
        for (BenchmarkReports.CandidateReport r : reports) {
            PyDict.Builder figures = PyDict.builder();
            for (Report.Figure f : r.report().figures())
                figures.put(f.name(), f.value() == null ? PyNone.NONE : Value.of(f.value()));
            out.add(PyDict.builder()
                    .put("benchmark", r.benchmark())
                    .put("candidate", r.candidate())
                    .put("title", r.report().title())
                    .put("rows", TableJson.rows(ScorecardTables.report(r.report())))
                    .put("figures", figures.build())
                    .put("notes", Value.of(r.report().notes()))
                    .build());
        }
        return PyList.of(out);
    }

    /** {@code experiment attempts}: the current cells' attempts (or all), filtered. */
    private int attempts(List<String> args, PrintStream out, PrintStream err) throws Exception {
        TableOutput o = TableOutput.take(args);
        boolean all = args.remove("--all"), failed = args.remove("--failed");
        List<String> tasks = takeAll(args, "--task"), candidates = takeAll(args, "--candidate");
        rejectOptions(args);
        return withStore(
                args,
                1,
                "attempts DIR [--all] [--task ID]... [--candidate NAME]... [--failed] " + TableOutput.OPTIONS,
                (store, a) -> {
                    List<ExperimentStore.Cell> cells = store.cells().stream()
                            .filter(c -> all || c.active())
                            .toList();
                    known(
                            "candidate",
                            candidates,
                            cells.stream()
                                    .map(ExperimentStore.Cell::candidate)
                                    .distinct()
                                    .toList(),
                            a.getFirst());
                    known(
                            "task",
                            tasks,
                            cells.stream()
                                    .map(ExperimentStore.Cell::taskId)
                                    .distinct()
                                    .toList(),
                            a.getFirst());
                    List<Inspect.AttemptRow> rows = Inspect.attempts(store, all).stream()
                            .filter(r -> tasks.isEmpty()
                                    || tasks.contains(r.attempt().taskId()))
                            .filter(r -> candidates.isEmpty() || candidates.contains(r.candidate()))
                            .filter(r -> !failed || !r.attempt().success())
                            .toList();
                    o.print(
                            out,
                            err,
                            List.of(new TableOutput.Section("attempts", null, ScorecardTables.attempts(rows))),
                            PyDict.empty());
                    if (rows.isEmpty() && o.format() == TableOutput.Format.TEXT) out.println("(no attempt matches)");
                });
    }

    /** {@code experiment copy SRC DST}: the whole store of SRC into the new store DST (SQLite and PostgreSQL alike). */
    private static int copy(List<String> args, PrintStream out) {
        rejectOptions(args);
        if (args.size() != 2) throw new UsageException("expected: copy SRC DST");
        StoreLocation src, dst;
        try {
            // Both URLs are checked (a password in either is refused) before either store is looked at.
            StoreLocation.parse(args.get(0));
            dst = StoreLocation.parse(args.get(1));
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        src = storeArg(args.get(0));
        StoreCopy.Copied c;
        try {
            c = StoreCopy.copy(src, dst);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
        out.println("copied experiment " + c.experiment() + " from " + src.display() + " to " + dst.display() + ": "
                + c.rows("cell") + " cells, " + c.rows("attempt") + " attempts, " + c.rows("blob") + " texts, "
                + c.rows("probe") + " probes, " + c.rows(Regrade.TABLE) + " regrade rows, " + c.rows("model_cache")
                + " cached responses");
        return 0;
    }

    /** A filter naming something the experiment does not have is a usage error that lists what it has. */
    private static void known(String what, List<String> asked, List<String> present, String dir) {
        for (String x : asked) {
            if (!present.contains(x)) {
                String list = String.join(", ", present.size() > 20 ? present.subList(0, 20) : present)
                        + (present.size() > 20 ? ", ..." : "");
                throw new UsageException("no " + what + " '" + x + "' in " + dir + " (" + what + "s: " + list + ")");
            }
        }
    }

    /** Every value of a repeatable {@code flag}, taken out of {@code args}. */
    private static List<String> takeAll(List<String> args, String flag) {
        List<String> out = new ArrayList<>();
        for (int i = args.indexOf(flag); i >= 0; i = args.indexOf(flag)) {
            if (i + 1 >= args.size()) throw new UsageException(flag + " needs a value");
            out.add(args.get(i + 1));
            args.subList(i, i + 2).clear();
        }
        return out;
    }

    private static void rejectOptions(List<String> args) {
        for (String a : args) if (a.startsWith("--")) throw new UsageException("unknown option " + a);
    }

    /**
     * {@code experiment list}: every directory holding an experiment store in or under the DIRs (the
     * default experiments folder without one), sorted; a store that cannot be read is reported on
     * stderr by name and the listing goes on (exit 1 at the end).
     */
    private int list(List<String> args, PrintStream out, PrintStream err) throws IOException {
        TableOutput o = TableOutput.take(args);
        rejectOptions(args);
        // PostgreSQL stores named among the DIRs are listed as they are (one store each).
        List<StoreLocation> urls = new ArrayList<>();
        for (String a : List.copyOf(args)) {
            if (a.startsWith("postgresql://") || a.startsWith("postgres://")) {
                try {
                    urls.add(StoreLocation.parse(a));
                } catch (IllegalArgumentException e) {
                    throw new InputException(e.getMessage());
                }
                args.remove(a);
            }
        }
        boolean explicit = !args.isEmpty() || !urls.isEmpty();
        List<Path> roots = !args.isEmpty()
                ? args.stream().map(Path::of).toList()
                : explicit ? List.of() : List.of(Path.of(".brokkr", "experiments"));
        for (Path r : roots) if (explicit && !Files.isDirectory(r)) throw new UsageException("no directory " + r);
        List<Path> dirs = new ArrayList<>();
        for (Path r : roots) {
            if (!Files.isDirectory(r)) continue;
            try (Stream<Path> walk = Files.walk(r)) {
                walk.filter(d -> Files.isRegularFile(ExperimentStore.file(d)))
                        .sorted()
                        .forEach(d -> {
                            if (!dirs.contains(d)) dirs.add(d);
                        });
            }
        }
        Map<String, ExperimentQuery.Overview> rows = new LinkedHashMap<>();
        int failed = 0;
        for (Path d : dirs) {
            try (ExperimentQuery store = ExperimentQuery.open(d)) {
                rows.put(d.toString(), store.overview());
            } catch (RuntimeException e) {
                failed++;
                err.println("brokkr experiment list: " + d + ": " + e.getMessage());
            }
        }
        for (StoreLocation u : urls) {
            try (ExperimentQuery store = ExperimentQuery.open(u)) {
                rows.put(u.display(), store.overview());
            } catch (RuntimeException e) {
                failed++;
                err.println("brokkr experiment list: " + u.display() + ": " + e.getMessage());
            }
        }
        if (dirs.isEmpty() && urls.isEmpty() && o.format() == TableOutput.Format.TEXT) {
            out.println("no experiment directories in "
                    + String.join(", ", roots.stream().map(Path::toString).toList()));
        } else {
            o.print(
                    out,
                    err,
                    List.of(new TableOutput.Section("experiments", null, ScorecardTables.experiments(rows))),
                    PyDict.empty());
        }
        return failed == 0 ? 0 : 1;
    }

    /** {@code experiment run}'s exit code when the run ended with cells that have no verdict. */
    static final int EXIT_NO_VERDICT = 3;

    private static long attemptId(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UsageException("ATTEMPT_ID must be a number, got '" + s + "'");
        }
    }

    private interface StoreWork {
        void run(ExperimentQuery store, List<String> args) throws Exception;
    }

    /**
     * After an inspection that went on past damaged attempts (shown with their row's columns, without checks and
     * evidence): an error naming the store and each attempt, so the command exits 1 after its output.
     */
    static void flagDamaged(List<ExperimentQuery.DamagedAttempt> damaged) {
        if (damaged.isEmpty()) return;
        throw new ExperimentStore.StoreException(
                String.join(
                                "; ",
                                damaged.stream()
                                        .map(ExperimentQuery.DamagedAttempt::message)
                                        .toList())
                        + (damaged.size() == 1 ? "; it is" : "; they are")
                        + " shown without checks and evidence, everything else is as stored",
                null);
    }

    /**
     * A command's DIR argument as a store that holds an experiment: a directory with {@code experiment.db}, or a
     * PostgreSQL URL ({@code postgresql://HOST[:PORT]/DB[?schema=S]}); a directory without a store, a malformed URL
     * or one carrying a password is an input error (exit 2). A PostgreSQL store that cannot be opened (unreachable,
     * credentials refused, no store in the schema, another schema version) fails when opened (exit 1).
     */
    static StoreLocation storeArg(String arg) {
        try {
            return StoreLocation.existing(arg);
        } catch (IllegalArgumentException e) {
            throw new InputException(e.getMessage());
        }
    }

    private static int withStore(List<String> args, int arity, String shape, StoreWork work) throws Exception {
        if (args.size() != arity) throw new UsageException("expected: " + shape);
        StoreLocation dir = storeArg(args.getFirst());
        try (ExperimentQuery store = ExperimentQuery.open(dir)) {
            work.run(store, args);
            flagDamaged(store.damaged());
        }
        return 0;
    }
}
