package brokkr.domains.bfcl.web;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.CategoryAccuracy;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.domains.bfcl.memory.AgenticChecker;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.domains.bfcl.multiturn.MultiTurnInference;
import brokkr.domains.bfcl.multiturn.MultiTurnTools;
import brokkr.eval.AgentInterface;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Interaction;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.Report;
import brokkr.eval.Transcripts;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldSetup;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * BFCL v4 {@code web_search} on the evaluation path, domain {@code bfcl-web-search}: the categories
 * {@code web_search_base} and {@code web_search_no_snippet} (100 questions each, {@link WebSearchData}), played by
 * upstream's function-calling loop ({@link MultiTurnInference}: {@code inference_multi_turn_FC}, one turn) against a
 * {@link WebSearchAPI} whose IO is a {@link WebRecording}, and graded by upstream's {@code agentic_checker} on the
 * last message that is not a call ({@code eval_runner._evaluate_single_agentic_entry}).
 *
 * <p>The recording is a setting: option {@code web_recording: FILE} (an experiment's domain options; {@code bfcl run
 * --web-recording FILE}). Without one no environment is offered (a clear error, not an empty world); its sha256 is
 * a data digest of every environment, so a different recording is different cells. A request the recording does
 * not hold ends the task as an infrastructure failure (no verdict, left out of the accuracy): the recording is
 * incomplete, not the model wrong.
 *
 * <p>Splits: {@code all}, {@code smoke} (the first 2 of each category), a category or several joined by commas.
 * Scripted candidate {@code gold}: per subquestion of the possible answer's sources a search (3 results) and a raw
 * fetch of the first result, then the first accepted answer in the response format: a check of the pipeline and of a
 * recording's coverage, not of a model.
 */
public final class WebSearchBenchmark implements BenchmarkProvider {
    public static final String NAME = "bfcl-web-search";
    public static final String OPTION = "web_recording";
    static final String REVISION = "gorilla@" + BfclData.UPSTREAM_COMMIT;
    public static final String MODEL_NAME = "brokkr-web-search";
    /** The data-digest key of the recording. */
    public static final String RECORDING_DIGEST = "web_recording";

    private volatile WebSearchData data;
    private volatile MultiTurnTools tools;
    /** Recordings loaded by this provider, by sha256 (the environment names its recording by digest only). */
    private final Map<String, WebIo> ios = new ConcurrentHashMap<>();

    private record TaskKey(String taskId, WebIo io) {}

    private final Map<TaskKey, MultiTurnData.Task> tasks = new ConcurrentHashMap<>();

    public WebSearchBenchmark() {}

    public WebSearchBenchmark(WebSearchData data) {
        this.data = data;
    }

    WebSearchData data() {
        if (data == null) {
            synchronized (this) {
                if (data == null) data = WebSearchData.load();
            }
        }
        return data;
    }

    /** The tools of a web_search task: WebSearchAPI's docs alone (no multi-turn class is involved). */
    MultiTurnTools tools() {
        if (tools == null) {
            synchronized (this) {
                if (tools == null) tools = MultiTurnTools.empty().withDocs(WebSearchData.CLASS, data().docs());
            }
        }
        return tools;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> tasks(String split) {
        List<String> categories;
        int per = Integer.MAX_VALUE;
        if (split.equals("all")) categories = WebSearchData.CATEGORIES;
        else if (split.equals("smoke")) {
            categories = WebSearchData.CATEGORIES;
            per = 2;
        } else categories = List.of(split.split(","));
        List<String> out = new ArrayList<>();
        for (String c : categories) {
            if (!WebSearchData.CATEGORIES.contains(c))
                throw new IllegalArgumentException("unknown split '" + split + "' (all, smoke, or categories joined by"
                        + " commas: " + String.join(", ", WebSearchData.CATEGORIES) + ")");
            List<String> ids = data().ids(c);
            out.addAll(ids.subList(0, Math.min(per, ids.size())));
        }
        return out;
    }

    static final String NO_RECORDING = NAME + " (web_search) runs on a web recording only: give option "
            + OPTION + ": FILE (bfcl run --web-recording FILE); record one where the network is reachable with"
            + " ./brokkr bfcl record-web --out FILE (SERPAPI_API_KEY from the environment)";

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        throw new IllegalArgumentException(NO_RECORDING);
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models, PyDict options) {
        for (String k : options.keys())
            if (!k.equals(OPTION))
                throw new IllegalArgumentException(NAME + " has no option '" + k + "' (" + OPTION + ")");
        Value file = options.get(OPTION);
        if (!(file instanceof PyStr path)) throw new IllegalArgumentException(NO_RECORDING);
        return environment(taskId, register(WebRecording.read(Path.of(path.asStr()))));
    }

    /** Makes {@code recording} known to this provider (by its digest); the IO that replays it. */
    public WebIo register(WebRecording recording) {
        return register(new WebIo.Replay(recording));
    }

    /** Makes {@code io} known to this provider by its digest (the recorder's live IO as "live"); returns it. */
    public WebIo register(WebIo io) {
        ios.put(io.sha256(), io);
        return io;
    }

    /** The environment of {@code taskId} on {@code io} (registered). */
    public EnvironmentDef environment(String taskId, WebIo io) {
        String category = WebSearchData.categoryOf(taskId);
        data().question(taskId);
        Map<String, String> digests = new LinkedHashMap<>(WebSearchData.DIGESTS);
        digests.put(RECORDING_DIGEST, io.sha256());
        return new EnvironmentDef(
                NAME, REVISION, digests, taskId, Map.of(), PyDict.of("category", new PyStr(category)));
    }

    MultiTurnData.Task task(EnvironmentDef env) {
        String sha = env.dataDigests().get(RECORDING_DIGEST);
        WebIo io = sha == null ? null : ios.get(sha);
        if (io == null) throw new IllegalArgumentException(NO_RECORDING + " (no recording " + sha + " loaded)");
        // by the IO itself: a later record-web run in this process registers a new live IO under the same name
        return tasks.computeIfAbsent(new TaskKey(env.taskId(), io), k -> data().task(env.taskId(), io));
    }

    /** Upstream's function-calling loop, as the reference candidate's protocol or with JSON tools (the notebook's %run). */
    @Override
    public AgentInterface agentInterface() {
        return new AgentInterface(
                AgentInterface.Shape.USER_TURNS, Map.of(AgentInterface.REFERENCE, List.of("reference", "tools")));
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            MultiTurnData.Task t = task(env);
            fork.set(PyDict.of("show_snippet", PyBool.of(!t.category().contains("no_snippet"))));
            return PyDict.of(RECORDING_DIGEST, new PyStr(env.dataDigests().get(RECORDING_DIGEST)));
        };
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            MultiTurnData.Task t = task(ctx.env());
            String space = ctx.agent().actionSpace();
            if (!space.equals("reference") && !space.equals("tools"))
                throw new IllegalArgumentException(NAME + " has no action space '" + space + "' (reference, tools)");
            ToolCompiler.Style style = ctx.agent().provider().equalsIgnoreCase("anthropic")
                    ? ToolCompiler.Style.ANTHROPIC
                    : ToolCompiler.Style.OPENAI_COMPLETIONS;
            MultiTurnInference.Trajectory tr = MultiTurnInference.run(
                    t, tools(), ctx.candidate(), style, MODEL_NAME, ctx.systemPrompt(), ctx.cellLimit());
            if (tr.failure() != null) throw tr.failure();
            List<Value> steps = new ArrayList<>();
            for (List<List<String>> turn : tr.turns())
                for (List<String> step : turn)
                    steps.add(PyList.of(
                            step.stream().map(s -> (Value) new PyStr(s)).toList()));
            String last = lastNonCallMessage(tr.messages());
            PyDict output = PyDict.builder()
                    .put("steps", PyList.of(steps))
                    .put("force_quit", PyBool.of(tr.forceQuit()))
                    .put("last_non_fc_message", last == null ? PyNone.NONE : new PyStr(last))
                    .build();
            long calls = steps.stream().mapToLong(s -> s.asList().size()).sum();
            return new Interaction(
                    Transcripts.toValue(tr.messages()),
                    output,
                    tr.forceQuit() ? "force_quit" : "completed",
                    Interaction.Counts.toolCalls(calls));
        };
    }

    /**
     * {@code _evaluate_single_agentic_entry}'s {@code last_unsuccessful_decoding_message}: the last step whose model
     * response is not calls (a function-calling model's text), null when there is none or it is empty (upstream's
     * {@code if not last_unsuccessful_decoding_message}: an empty text is no last message).
     */
    static String lastNonCallMessage(List<Message> messages) {
        String last = null;
        for (Message m : messages)
            if (m instanceof Message.Assistant a && a.toolCalls().isEmpty()) last = a.content();
        return last == null || last.isEmpty() ? null : last;
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            String category = WebSearchData.categoryOf(run.env().taskId());
            List<String> answers = data().question(run.env().taskId()).groundTruth();
            Value lastV = run.interaction().output().get("last_non_fc_message");
            boolean setup = new PyStr(run.env().dataDigests().get(RECORDING_DIGEST))
                    .equals(run.setupEvidence().get(RECORDING_DIGEST));
            boolean valid;
            String errorType, error;
            if (lastV == null || lastV.isNone()) {
                valid = false;
                errorType = "agentic:no_last_message";
                error = "Cannot find the last chat message that is not a function call.";
            } else {
                AgenticChecker.Verdict v = AgenticChecker.check(lastV.asStr(), answers);
                valid = v.valid();
                errorType = v.errorType();
                error = v.errorMessage();
            }
            PyDict details = PyDict.builder()
                    .put("category", new PyStr(category))
                    .put("error_type", errorType == null ? PyNone.NONE : new PyStr(errorType))
                    .put("error_message", error == null ? PyNone.NONE : new PyStr(error))
                    .build();
            return new Verdict(
                    List.of(new Check("setup_verified", setup), new Check("agentic_checker_valid", valid)),
                    setup && valid ? 1.0 : 0.0,
                    TrustTier.DETERMINISTIC,
                    details);
        };
    }

    /** Upstream's web-search accuracy per category, and {@code summary_web_search}: their unweighted mean. */
    @Override
    public List<Report> reports(List<Report.Outcome> outcomes) {
        return List.of(CategoryAccuracy.report(
                "web_search accuracy per category",
                WebSearchData.CATEGORIES,
                outcomes,
                "web_search_summary_accuracy",
                "summary = unweighted mean of web_search_base and web_search_no_snippet (upstream's"
                        + " summary_web_search); null until both were run; infrastructure failures (requests the"
                        + " recording does not hold) are left out"));
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent")) throw new IllegalArgumentException(NAME + " has no scripted " + role);
        if (!model.model().equals("gold"))
            throw new IllegalArgumentException("unknown " + NAME + " candidate '" + model.model() + "' (gold)");
        return new WebSearchGold(data().question(env.taskId()));
    }

    /** Whether a file is a readable recording (for a CLI's early check): its error text, or null. */
    static String check(Path file) {
        if (!Files.isRegularFile(file)) return "no web recording " + file;
        try {
            WebRecording.read(file);
            return null;
        } catch (WebRecording.WebRecordingException e) {
            return e.getMessage();
        }
    }
}
