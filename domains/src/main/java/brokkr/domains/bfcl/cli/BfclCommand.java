package brokkr.domains.bfcl.cli;

import brokkr.command.Cells;
import brokkr.command.Command;
import brokkr.command.CommandContext;
import brokkr.command.RecordFile;
import brokkr.conversation.Candidate;
import brokkr.domains.bfcl.BfclBenchmark;
import brokkr.domains.bfcl.BfclCategory;
import brokkr.domains.bfcl.BfclOverall;
import brokkr.domains.bfcl.BfclScores;
import brokkr.domains.bfcl.FormatSensitivity;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.Registry;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code ./brokkr bfcl run --agent gold|reference|tools [--sample N] [--seed S] ...}: runs a BFCL
 * candidate over a stable seeded slice of every category and prints per-category accuracy with
 * upstream's aggregates. A preset over the one evaluation path: the registry's {@code bfcl}
 * benchmark, the slice as its split ({@link BfclBenchmark#split}), the agent as an AgentDef (action
 * space {@code reference} or {@code tools}, {@code parallel_tool_calls} a model option; {@code gold}
 * the benchmark's scripted candidate), one cell per task, {@code --jobs} at a time.
 */
public record BfclCommand(Registry registry, Map<String, String> env) implements Command {
    public BfclCommand {
        env = Map.copyOf(env);
    }

    /** With the process's registry and environment. */
    public BfclCommand(CommandContext context) {
        this(context.registry(), context.env());
    }

    @Override
    public String name() {
        return "bfcl";
    }

    @Override
    public String summary() {
        return "run a candidate on BFCL single-turn categories and score it";
    }

    @Override
    public String usage() {
        return """
               usage: ./brokkr bfcl run --agent gold|gold-repl|gold-loop|gold-prompting|reference|tools|repl|loop|prompting [--repl-guidance G] [--sample N] [--seed S]
                                        [--categories C1,C2,...] [--provider P --model M]
                                        [--parallel-tool-calls true|false] [--jobs J] [--out FILE [--append|--force]]
                                        [--web-recording FILE]
               usage: ./brokkr bfcl record-web --out FILE [--force] [--categories C | --tasks IDS] [--agent gold|reference ...]

               Runs the candidate on N tasks per category (a stable slice chosen by the seed; all tasks
               without --sample) and prints tasks, passed and accuracy per category, then upstream's live
               overall (weighted) and irrelevance detection (unweighted) aggregates. Columns: tasks run, passed,
               accuracy (passed / graded: tasks with a verdict), unsat (tasks no answer can pass upstream's checker;
               they count as failures, as upstream's do), infra (tasks without a verdict: provider out of retries,
               not graded). live overall: live_simple, live_multiple, live_parallel and live_parallel_multiple
               weighted by graded tasks; irrelevance detection: the mean of irrelevance and live_irrelevance; N/A
               when one of their categories was not run.
                 gold       a scripted candidate answering every task with an accepted answer
                 reference  one model call with the compiled tools (needs --provider and --model)
                 tools      one step of the agent loop, functions as recorder tools (idem)
                 repl       Brokkr's agent loop with one tool, java_eval(code): the functions as Java methods
                            (idem; gold-repl: the gold answer written as Java)
                 prompting  prompting mode: no tools, upstream's system prompt (ret_fmt=python... default), the answer
                            text decoded as upstream decodes it (Java/JS parsers for simple_java/simple_javascript)
                            (idem; gold-prompting: the gold answer written in the format the prompt asks for)
                 loop       multi-turn only: Brokkr's agent loop with the JSON tools, several calls over several
                            model steps per user turn (idem; gold-loop: the ground truth batched per turn)
               --out FILE writes one JSON line per task, as it finishes (id, category, status, model_output:
               the decoded answer, decode error and the assistant's messages; verdict: valid, reward,
               error_type, error, unsatisfiable; or the error of an infrastructure failure); a file that
               exists is refused unless --append (add to it) or --force (replace it); a new file is readable
               by its owner only (0600).
               Multi-turn categories (multi_turn_base, multi_turn_miss_func, multi_turn_miss_param,
               multi_turn_long_context) run upstream's function-calling loop (--agent gold or reference) or Brokkr's
               agent loop (loop, repl and their gold-) and print upstream's multi-turn accuracy per category and
               overall (the mean of the four).
               web_search_base, web_search_no_snippet (BFCL's agentic web search) run on a web recording only:
               --web-recording FILE (made once where the network is reachable with ./brokkr bfcl record-web --out
               FILE, a SerpAPI key in SERPAPI_API_KEY; see ./brokkr bfcl record-web --help); --agent gold or
               reference; a search or page the recording lacks is an infrastructure failure (no verdict).
               format_sensitivity (prompting agents only, not in the default categories): upstream's 200 entries
               under its 26 prompt configurations (--sample N: N entries x 26), printed per configuration with
               accuracy_max_delta/variance/std; not part of the overall.
               Memory categories (%s) play each question after its scenario's prerequisite
               conversations, the candidate talking to the memory backend's tools across them, through the same
               agents, and print upstream's memory accuracy per category (agentic_checker on the final answer).
               Upstream's overall (non-live 10%%, live 10%%, irrelevance 10%%, multi-turn 30%%, agentic 40%%) is printed
               once over every part run: a segment not run in full is N/A, and the overall of the segments run names
               what it covers.
               Categories: %s. Keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...).
               The data directory is -Dbrokkr.bfcl.data / BROKKR_BFCL_DATA, else ../shared/upstream/gorilla/...
               (./brokkr data fetch gorilla fetches it).""".formatted(
                                String.join(", ", brokkr.domains.bfcl.memory.MemoryCategory.availableIds()),
                                String.join(", ", BfclCategory.ids()))
                + "\n\n" + BfclWebSearchRun.RECORD_USAGE.substring(BfclWebSearchRun.RECORD_USAGE.indexOf("\n\n") + 2);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws InterruptedException, IOException {
        if (!args.isEmpty() && args.get(0).equals("record-web"))
            return BfclWebSearchRun.record(registry, env, args, out, err);
        if (args.isEmpty() || !args.get(0).equals("run")) throw new UsageException("expected 'run' or 'record-web'");
        String agentName = null, provider = null, model = null, replGuidance = null;
        Path outFile = null;
        RecordFile.Existing existing = null;
        Integer sample = null;
        long seed = 0;
        int jobs = 4;
        Boolean parallel = null;
        List<BfclCategory> categories = List.of(BfclCategory.values());
        boolean formatSensitivity = false;
        List<String> multiTurn = new ArrayList<>(), memory = new ArrayList<>();
        List<String> webSearch = new ArrayList<>();
        Path webRecording = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--append") || a.equals("--force")) {
                RecordFile.Existing m = a.equals("--append") ? RecordFile.Existing.APPEND : RecordFile.Existing.REPLACE;
                if (existing != null && existing != m) throw new UsageException("give --append or --force, not both");
                existing = m;
                continue;
            }
            String v = switch (a) {
                case "--agent",
                        "--sample",
                        "--seed",
                        "--categories",
                        "--provider",
                        "--model",
                        "--parallel-tool-calls",
                        "--jobs",
                        "--out",
                        "--web-recording",
                        "--repl-guidance" -> {
                    if (i + 1 >= args.size()) throw new UsageException(a + " needs a value");
                    yield args.get(++i);
                }
                default -> throw new UsageException("unexpected argument '" + a + "'");
            };
            try {
                switch (a) {
                    case "--agent" -> agentName = v;
                    case "--repl-guidance" -> replGuidance = v;
                    case "--sample" -> sample = Integer.parseInt(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--jobs" -> jobs = Integer.parseInt(v);
                    case "--provider" -> provider = v;
                    case "--model" -> model = v;
                    case "--out" -> outFile = Path.of(v);
                    case "--web-recording" -> webRecording = Path.of(v);
                    case "--parallel-tool-calls" -> {
                        if (!v.equals("true") && !v.equals("false"))
                            throw new UsageException("--parallel-tool-calls takes true or false");
                        parallel = Boolean.parseBoolean(v);
                    }
                    case "--categories" -> {
                        List<BfclCategory> cs = new ArrayList<>();
                        for (String c : v.split(",")) {
                            if (BfclMultiTurnRun.isMultiTurn(c.trim())) multiTurn.add(c.trim());
                            else if (BfclWebSearchRun.isWebSearch(c.trim())) webSearch.add(c.trim());
                            else if (c.trim().equals(FormatSensitivity.CATEGORY)) formatSensitivity = true;
                            else if (BfclMultiTurnRun.isMemory(c.trim())) memory.add(c.trim());
                            else cs.add(BfclCategory.of(c.trim()));
                        }
                        categories = cs;
                    }
                    default -> throw new AssertionError(a);
                }
            } catch (NumberFormatException e) {
                throw new UsageException(a + " takes a number, got '" + v + "'");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (agentName == null) throw new UsageException("missing --agent");
        if (!webSearch.isEmpty() && webRecording == null)
            throw new UsageException("web_search categories (" + String.join(", ", webSearch)
                    + ") are offered on a web recording only: give --web-recording FILE (record one where the network"
                    + " is reachable with ./brokkr bfcl record-web --out FILE, SERPAPI_API_KEY from the environment)");
        if (webSearch.isEmpty() && webRecording != null)
            throw new UsageException(
                    "--web-recording goes with --categories web_search_base and/or web_search_no_snippet");
        if (existing != null && outFile == null)
            throw new UsageException(
                    (existing == RecordFile.Existing.APPEND ? "--append" : "--force") + " goes with --out");
        if (existing == null) existing = RecordFile.Existing.REFUSE;
        // tau2 run --out's rule: an existing file is refused before anything runs, not after the multi-turn part.
        if (outFile != null && existing == RecordFile.Existing.REFUSE && Files.exists(outFile))
            throw new InputException("--out " + outFile
                    + " exists; give --append to add to it or --force to replace it (refused: two runs in one file)");
        if (sample != null && sample < 1) throw new UsageException("--sample must be at least 1");
        AgentDef agent = switch (agentName) {
            // The gold answer comes as a scripted model's one reply to the compiled tools.
            case "gold" -> AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "gold"), "reference", null);
            // Prompting mode: no tools, upstream's system prompt, the answer text decoded as upstream decodes it.
            case "gold-prompting" ->
                AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "gold"), BfclBenchmark.PROMPTING, null);
            case "prompting" -> {
                if (provider == null || model == null)
                    throw new UsageException("--agent prompting needs --provider and --model");
                yield AgentDef.of(new ModelRef(provider, model, PyDict.empty()), BfclBenchmark.PROMPTING, null);
            }
            case "reference", "tools" -> {
                if (provider == null || model == null)
                    throw new UsageException("--agent " + agentName + " needs --provider and --model");
                PyDict options =
                        parallel == null ? PyDict.empty() : PyDict.of("parallel_tool_calls", PyBool.of(parallel));
                yield AgentDef.of(new ModelRef(provider, model, options), agentName, null);
            }
            // Brokkr's loop with the REPL action space: one java_eval, the functions as Java recorder methods.
            case "repl", "gold-repl" -> {
                Harness h;
                try {
                    h = Harness.of(Harness.LOOP, Harness.REPL, replGuidance, PyDict.empty());
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                if (agentName.equals("gold-repl"))
                    yield AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "gold"), Harness.REPL, null)
                            .withHarness(h.toValue());
                if (provider == null || model == null)
                    throw new UsageException("--agent repl needs --provider and --model");
                PyDict options =
                        parallel == null ? PyDict.empty() : PyDict.of("parallel_tool_calls", PyBool.of(parallel));
                yield AgentDef.of(new ModelRef(provider, model, options), Harness.REPL, null)
                        .withHarness(h.toValue());
            }
            // Brokkr's loop with the JSON tools: multi-turn only (a single-turn answer is one step, --agent tools).
            case "loop", "gold-loop" -> {
                if (!categories.isEmpty())
                    throw new UsageException("--agent " + agentName
                            + " runs multi-turn and memory categories only (single-turn: tools)");
                Harness h = Harness.of(Harness.LOOP, "tools", null, PyDict.empty());
                if (agentName.equals("gold-loop"))
                    yield AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "gold"), "tools", null)
                            .withHarness(h.toValue());
                if (provider == null || model == null)
                    throw new UsageException("--agent loop needs --provider and --model");
                PyDict options =
                        parallel == null ? PyDict.empty() : PyDict.of("parallel_tool_calls", PyBool.of(parallel));
                yield AgentDef.of(new ModelRef(provider, model, options), "tools", null)
                        .withHarness(h.toValue());
            }
            default ->
                throw new UsageException("unknown agent '" + agentName
                        + "' (gold, gold-repl, gold-loop, gold-prompting, reference, tools, repl, loop, prompting)");
        };
        if (formatSensitivity && !agent.actionSpace().equals(BfclBenchmark.PROMPTING))
            throw new UsageException(
                    FormatSensitivity.CATEGORY
                            + " is for prompting-mode candidates (--agent prompting or gold-prompting), as upstream skips it for FC models");
        if (replGuidance != null && !agentName.endsWith("repl"))
            throw new UsageException("--repl-guidance applies to --agent repl and gold-repl");
        Function<ModelRef, Candidate> models = Cells.providers(registry, env);
        if (!agent.provider().equals(BenchmarkProvider.SCRIPTED)) {
            try {
                models.apply(agent.modelRef()); // configuration errors before any task runs
            } catch (IllegalArgumentException e) {
                throw new InputException(e.getMessage()); // an unknown provider, a key that is not set
            }
        }
        if (!webSearch.isEmpty() && outFile != null)
            throw new UsageException(
                    "--out writes single-turn answers; web_search categories have none: run them" + " without --out");
        List<String> episodic = new ArrayList<>(multiTurn);
        episodic.addAll(memory);
        if (!episodic.isEmpty() && outFile != null)
            // The per-task lines are single-turn answers (model_output); a multi-turn episode has no such line.
            throw new UsageException("--out writes single-turn answers; multi-turn and memory categories ("
                    + String.join(", ", episodic) + ") have none: run them without --out");
        boolean nothingScored = false;
        // Every part's categories, for upstream's overall over all of them (printed once, after the last part).
        Map<String, BfclOverall.Category> ran = new LinkedHashMap<>();
        if (!multiTurn.isEmpty()) {
            BfclMultiTurnRun.Outcome mt =
                    BfclMultiTurnRun.run(registry, multiTurn, agent, sample, seed, jobs, models, out);
            nothingScored = noVerdict(mt.tasks(), mt.withoutVerdict(), mt.firstError(), "multi-turn", err);
            ran.putAll(mt.categories());
        }
        if (!memory.isEmpty()) {
            BfclMultiTurnRun.Outcome m =
                    BfclMultiTurnRun.runMemory(registry, memory, agent, sample, seed, jobs, models, out);
            nothingScored |= noVerdict(m.tasks(), m.withoutVerdict(), m.firstError(), "memory", err);
            ran.putAll(m.categories());
        }
        if (!webSearch.isEmpty()) {
            BfclWebSearchRun.Outcome ws =
                    BfclWebSearchRun.run(registry, webSearch, webRecording, agent, sample, seed, jobs, models, out);
            nothingScored |= noVerdict(ws.tasks(), ws.withoutVerdict(), ws.firstError(), "web_search", err);
            ran.putAll(ws.categories());
        }
        if (categories.isEmpty() && !formatSensitivity) {
            out.print(BfclScores.formatOverall(BfclOverall.of(ran)));
            return nothingScored ? 1 : 0;
        }
        BenchmarkProvider bfcl = registry.benchmark("bfcl");
        List<EnvironmentDef> envs = new ArrayList<>();
        String split = BfclBenchmark.split(categories, sample, seed);
        if (formatSensitivity) {
            String suffix = sample == null ? "" : ":sample=" + sample + ":seed=" + seed;
            split = (categories.isEmpty()
                            ? FormatSensitivity.CATEGORY
                            : BfclBenchmark.split(categories, null, seed) + "," + FormatSensitivity.CATEGORY)
                    + suffix;
        }
        for (String id : bfcl.tasks(split)) envs.add(bfcl.environment(id, Map.of()));
        List<Evaluation.Cell> cells = envs.stream()
                .map(e -> new Evaluation.Cell(bfcl, e, agent, null, 0))
                .toList();
        long t0 = System.nanoTime();
        List<Attempt> attempts = new ArrayList<>();
        try (RecordFile log = outFile == null ? null : RecordFile.open(outFile, "--out", existing, err)) {
            Cells.run(cells, models, jobs, a -> {
                attempts.add(a);
                if (log == null) return;
                try {
                    log.append(PyJson.dumps(
                            BfclBenchmark.outputRecord(envs.get(attempts.size() - 1), a),
                            PyJson.DumpOptions.DEFAULT.withEnsureAscii(false)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        List<BfclScores.TaskResult> results = new ArrayList<>();
        List<FormatSensitivity.Result> fsResults = new ArrayList<>();
        for (int i = 0; i < envs.size(); i++) {
            EnvironmentDef e = envs.get(i);
            if (e.options().get("category").asStr().equals(FormatSensitivity.CATEGORY))
                fsResults.add(new FormatSensitivity.Result(
                        e.options().get("config").asStr(),
                        attempts.get(i).success(),
                        !attempts.get(i).completed()));
            else results.add(BfclScores.TaskResult.of(e, attempts.get(i)));
        }
        boolean scripted = agent.provider().equals(BenchmarkProvider.SCRIPTED);
        out.println("agent " + agentName + (scripted || parallel == null ? "" : ", parallel_tool_calls " + parallel)
                + ", " + envs.size() + " tasks"
                + (sample == null ? "" : " (sample " + sample + " per category, seed " + seed + ")"));
        if (!results.isEmpty()) out.print(BfclScores.format(BfclScores.summarize(results), ran));
        else if (!ran.isEmpty()) out.print(BfclScores.formatOverall(BfclOverall.of(ran)));
        // Reported per configuration, outside the overall (upstream's NON_SCORING_CATEGORY).
        if (!fsResults.isEmpty()) out.print(FormatSensitivity.format(FormatSensitivity.report(fsResults)));
        err.println("ran in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        List<Attempt> failed = attempts.stream().filter(a -> !a.completed()).toList();
        nothingScored |= noVerdict(
                attempts.size(),
                failed.size(),
                failed.isEmpty() ? null : failed.getFirst().error(),
                "single-turn",
                err);
        return nothingScored ? 1 : 0;
    }

    /**
     * Whether nothing of a part was scored: every task failed without a verdict (a model that could not be reached,
     * every call an error). Said on stderr with the first failure: an accuracy of 0 over no verdict is no result.
     */
    private static boolean noVerdict(int tasks, int withoutVerdict, String firstError, String part, PrintStream err) {
        if (tasks == 0 || withoutVerdict < tasks) return false;
        err.println("brokkr bfcl: nothing was scored: all " + tasks + " " + part
                + " tasks failed without a verdict (first: " + firstError + ")");
        return true;
    }
}
