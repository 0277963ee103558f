package brokkr.domains.bfcl.cli;

import brokkr.command.Cells;
import brokkr.command.Command;
import brokkr.conversation.Candidate;
import brokkr.domains.bfcl.BfclOverall;
import brokkr.domains.bfcl.web.LiveWeb;
import brokkr.domains.bfcl.web.WebIo;
import brokkr.domains.bfcl.web.WebRecording;
import brokkr.domains.bfcl.web.WebSearchBenchmark;
import brokkr.domains.bfcl.web.WebSearchData;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.eval.Report;
import brokkr.experiment.Registry;
import brokkr.repl.Harness;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * BFCL's {@code web_search} categories from the CLI: {@code bfcl run --categories web_search_base,... --web-recording
 * FILE} replays a recording ({@link WebSearchBenchmark}); {@code bfcl record-web --out FILE} runs a candidate with live
 * IO (SerpAPI with {@code SERPAPI_API_KEY} from the environment, the pages it finds) and writes every search and page
 * it used as a {@link WebRecording}.
 */
final class BfclWebSearchRun {
    private BfclWebSearchRun() {}

    /** The environment variable of the SerpAPI key (upstream's name); read, never written anywhere. */
    static final String KEY_VARIABLE = "SERPAPI_API_KEY";
    /** SerpAPI's base URL, for a loopback fake in tests only (default https://serpapi.com). */
    static final String BASE_VARIABLE = "BROKKR_SERPAPI_BASE_URL";

    static boolean isWebSearch(String category) {
        return WebSearchData.CATEGORIES.contains(category);
    }

    /** The part's figures; {@code categories}: each category run, for upstream's overall (its web-search half). */
    record Outcome(int tasks, int withoutVerdict, String firstError, Map<String, BfclOverall.Category> categories) {}

    private static WebSearchBenchmark benchmark(Registry registry) {
        BenchmarkProvider b = registry.benchmark(WebSearchBenchmark.NAME);
        if (!(b instanceof WebSearchBenchmark w))
            throw new IllegalStateException(WebSearchBenchmark.NAME + " is not Brokkr's web-search benchmark");
        return w;
    }

    private static void checkAgent(AgentDef agent) {
        if (!agent.actionSpace().equals("reference")
                || Harness.fromValue(agent.harness()).loop())
            throw new Command.UsageException("web_search categories take --agent gold or reference (upstream's"
                    + " function-calling loop), not " + agent.actionSpace());
    }

    /** The task ids of {@code categories}, a stable seeded slice of {@code sample} per category when given. */
    private static List<String> ids(WebSearchBenchmark b, List<String> categories, Integer sample, long seed) {
        List<String> out = new ArrayList<>();
        for (String c : categories) {
            List<String> ids = new ArrayList<>(b.tasks(c));
            if (sample != null) {
                ids.sort(Comparator.comparing((String id) -> BfclMultiTurnRun.sha256(seed + "/" + id)));
                ids = new ArrayList<>(ids.subList(0, Math.min(sample, ids.size())));
            }
            out.addAll(ids);
        }
        return out;
    }

    private static List<Attempt> run(
            WebSearchBenchmark b,
            List<EnvironmentDef> envs,
            AgentDef agent,
            int jobs,
            Function<ModelRef, Candidate> models)
            throws InterruptedException {
        List<Evaluation.Cell> cells = envs.stream()
                .map(e -> new Evaluation.Cell(b, e, agent, null, 0))
                .toList();
        List<Attempt> attempts = new ArrayList<>();
        Cells.run(cells, models, jobs, attempts::add);
        return attempts;
    }

    private static Outcome print(
            WebSearchBenchmark b, List<EnvironmentDef> envs, List<Attempt> attempts, String head, PrintStream out) {
        List<Report.Outcome> outcomes = new ArrayList<>();
        int infra = 0;
        String firstError = null;
        for (int i = 0; i < envs.size(); i++) {
            outcomes.add(new Report.Outcome(envs.get(i), attempts.get(i)));
            if (!attempts.get(i).completed()) {
                infra++;
                if (firstError == null) firstError = attempts.get(i).error();
            }
        }
        Report r = b.reports(outcomes).getFirst();
        out.println(head + ": " + envs.size() + " tasks"
                + (infra == 0 ? "" : ", " + infra + " without a verdict (infrastructure: " + firstError + ")"));
        out.printf("%-26s %6s %6s %9s%n", "category", "tasks", "valid", "accuracy");
        Map<String, BfclOverall.Category> ran = new LinkedHashMap<>();
        for (List<Object> row : r.rows()) {
            if ((Integer) row.get(1) == 0) continue;
            ran.put((String) row.get(0), new BfclOverall.Category((Double) row.get(3), (Integer) row.get(1)));
            out.printf("%-26s %6d %6d %8.2f%%%n", row.get(0), row.get(1), row.get(2), 100 * (Double) row.get(3));
        }
        Double summary = r.figures().getFirst().value();
        out.println("web_search summary (mean of the two categories): "
                + (summary == null ? "N/A (not both were run)" : String.format("%.2f%%", 100 * summary)));
        return new Outcome(envs.size(), infra, firstError, ran);
    }

    /** {@code bfcl run --categories web_search_* --web-recording FILE}: replays the recording. */
    static Outcome run(
            Registry registry,
            List<String> categories,
            Path recording,
            AgentDef agent,
            Integer sample,
            long seed,
            int jobs,
            Function<ModelRef, Candidate> models,
            PrintStream out)
            throws InterruptedException {
        checkAgent(agent);
        WebSearchBenchmark b = benchmark(registry);
        WebRecording rec;
        try {
            rec = WebRecording.read(recording);
        } catch (WebRecording.WebRecordingException e) {
            throw new Command.InputException(e.getMessage());
        }
        WebIo io = b.register(rec);
        List<EnvironmentDef> envs = new ArrayList<>();
        for (String id : ids(b, categories, sample, seed)) envs.add(b.environment(id, io));
        List<Attempt> attempts = run(b, envs, agent, jobs, models);
        return print(
                b,
                envs,
                attempts,
                "web_search on " + recording.getFileName() + " (sha256 "
                        + rec.sha256().substring(0, 12) + ", " + rec.searchCount() + " searches, " + rec.fetchCount()
                        + " pages)",
                out);
    }

    static final String RECORD_USAGE = """
            usage: ./brokkr bfcl record-web --out FILE [--force] [--categories C1,C2 | --tasks ID1,ID2,...]
                                            [--agent gold | --agent reference --provider P --model M] [--jobs J]

            Runs the candidate over web_search tasks (default: both categories, all 100 questions) with live IO:
            SerpAPI's duckduckgo engine with the key in SERPAPI_API_KEY (from the environment only; never written
            to the recording, the output or a log) and the pages the candidate fetches; then writes every search and
            page it used to FILE (a web recording, format brokkr-bfcl-web-recording v1; readable by its owner only),
            which `bfcl run --categories web_search_base,web_search_no_snippet --web-recording FILE` replays.
            A file that exists is refused unless --force. gold: per subquestion of the possible answer a search and a
            fetch of its first result, then the accepted answer (records the IO a run of it needs).""";

    /** {@code bfcl record-web ...}. */
    static int record(Registry registry, Map<String, String> env, List<String> args, PrintStream out, PrintStream err)
            throws InterruptedException, IOException {
        Path outFile = null;
        boolean force = false;
        List<String> categories = null, tasks = null;
        String agentName = "gold", provider = null, model = null;
        int jobs = 4;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--force")) {
                force = true;
                continue;
            }
            if (!List.of("--out", "--categories", "--tasks", "--agent", "--provider", "--model", "--jobs")
                    .contains(a)) throw new Command.UsageException("unexpected argument '" + a + "'");
            if (i + 1 >= args.size()) throw new Command.UsageException(a + " needs a value");
            String v = args.get(++i);
            switch (a) {
                case "--out" -> outFile = Path.of(v);
                case "--categories" -> categories = List.of(v.split(","));
                case "--tasks" -> tasks = List.of(v.split(","));
                case "--agent" -> agentName = v;
                case "--provider" -> provider = v;
                case "--model" -> model = v;
                case "--jobs" -> {
                    try {
                        jobs = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new Command.UsageException("--jobs takes a number, got '" + v + "'");
                    }
                    if (jobs < 1) throw new Command.UsageException("--jobs must be at least 1");
                }
                default -> throw new AssertionError(a);
            }
        }
        if (outFile == null) throw new Command.UsageException("missing --out FILE");
        if (categories != null && tasks != null)
            throw new Command.UsageException("give --categories or --tasks, not both");
        AgentDef agent = switch (agentName) {
            case "gold" -> AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "gold"), "reference", null);
            case "reference" -> {
                if (provider == null || model == null)
                    throw new Command.UsageException("--agent reference needs --provider and --model");
                yield AgentDef.of(new ModelRef(provider, model), "reference", null);
            }
            default -> throw new Command.UsageException("unknown agent '" + agentName + "' (gold, reference)");
        };
        WebSearchBenchmark b = benchmark(registry);
        List<String> ids = new ArrayList<>();
        try {
            if (tasks != null) {
                for (String id : tasks) {
                    if (!b.tasks(WebSearchData.categoryOf(id.trim())).contains(id.trim()))
                        throw new IllegalArgumentException("unknown web_search task " + id.trim());
                    ids.add(id.trim());
                }
            } else {
                for (String c : categories == null ? WebSearchData.CATEGORIES : categories)
                    ids.addAll(b.tasks(c.trim()));
            }
        } catch (IllegalArgumentException e) {
            throw new Command.UsageException(e.getMessage());
        }
        String key = env.get(KEY_VARIABLE);
        if (key == null || key.isBlank())
            throw new Command.InputException("record-web needs a SerpAPI key in " + KEY_VARIABLE
                    + " (the environment only); it searches the live web");
        if (!force && Files.exists(outFile))
            throw new Command.InputException("--out " + outFile + " exists; give --force to replace it");
        Function<ModelRef, Candidate> models = Cells.providers(registry, env);
        if (!agent.provider().equals(BenchmarkProvider.SCRIPTED)) {
            try {
                models.apply(agent.modelRef());
            } catch (IllegalArgumentException e) {
                throw new Command.InputException(e.getMessage());
            }
        }
        WebRecording.Builder builder = new WebRecording.Builder(key);
        WebIo io = b.register(
                new WebIo.Recording(builder, LiveWeb.of(env.getOrDefault(BASE_VARIABLE, LiveWeb.SERPAPI), key)));
        List<EnvironmentDef> envs = new ArrayList<>();
        for (String id : ids) envs.add(b.environment(id, io));
        List<Attempt> attempts = run(b, envs, agent, jobs, models);
        byte[] bytes = builder.bytes();
        write(outFile, bytes, force);
        WebRecording rec = WebRecording.parse(bytes, outFile.toString());
        Outcome o = print(b, envs, attempts, "web_search with live IO (agent " + agentName + ")", out);
        out.println("recorded " + rec.searchCount() + " searches and " + rec.fetchCount() + " pages into " + outFile
                + " (sha256 " + rec.sha256() + ")");
        return o.withoutVerdict() == o.tasks() && o.tasks() > 0 ? 1 : 0;
    }

    /** Writes the recording owner-only (0600), refusing an existing file unless {@code force}. */
    private static void write(Path file, byte[] bytes, boolean force) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        }
        Files.write(tmp, bytes, StandardOpenOption.TRUNCATE_EXISTING);
        if (!force && Files.exists(file)) {
            Files.delete(tmp);
            throw new FileAlreadyExistsException(file.toString());
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
