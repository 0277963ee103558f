package brokkr.domains.bfcl;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.eval.AgentInterface;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluator;
import brokkr.eval.Exploration;
import brokkr.eval.Interaction;
import brokkr.eval.ModelRef;
import brokkr.eval.Protocol;
import brokkr.eval.Report;
import brokkr.eval.Transcripts;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.eval.WorldSetup;
import brokkr.python.PyJson;
import brokkr.repl.Harness;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * BFCL single-turn (Python) on the evaluation path, domain {@code bfcl}. A task's world is empty;
 * the setup's evidence is the digest of the tool specs the candidate is given. The protocol is one
 * model step ({@code action_space: reference}: one call with the compiled tools; {@code tools}: one
 * step of the agent loop with recorder functions), the candidate's {@code parallel_tool_calls}
 * option being part of its AgentDef. The evaluator decodes nothing itself: it grades the protocol's
 * decoded answer with the AST checker ({@link BfclGrader}, function-calling names: {@code .} as
 * {@code _}). EnvironmentDefs carry the category and whether the task is unsatisfiable.
 *
 * <p>Splits: {@code all}; categories; {@code smoke} = 2 tasks per category (seed 7); seeded samples
 * ({@link #tasks}). Scripted candidate ({@code provider: scripted}): {@code gold}.
 */
public final class BfclBenchmark implements BenchmarkProvider {
    static final String REVISION = "gorilla@" + BfclData.UPSTREAM_COMMIT;

    private volatile BfclData data;
    private volatile Map<String, BfclTask> byId;
    private volatile Map<String, FormatSensitivity.Entry> formatSensitivity;

    public BfclBenchmark() {}

    /** A benchmark over already loaded data (tests). */
    public BfclBenchmark(BfclData data) {
        this.data = data;
        this.byId = data.byId();
    }

    private BfclData data() {
        if (data == null) {
            synchronized (this) {
                if (data == null) {
                    BfclData d = BfclData.load();
                    byId = d.byId();
                    data = d;
                }
            }
        }
        return data;
    }

    BfclTask task(String id) {
        data();
        if (id.startsWith(FormatSensitivity.CATEGORY + "_"))
            return formatSensitivity(id).task();
        BfclTask t = byId.get(id);
        if (t == null) throw new IllegalArgumentException("unknown bfcl task " + id);
        return t;
    }

    /** A format_sensitivity entry by its task id, or null if {@code id} is not one. */
    FormatSensitivity.Entry formatSensitivity(String id) {
        if (!id.startsWith(FormatSensitivity.CATEGORY + "_")) return null;
        if (formatSensitivity == null) {
            synchronized (this) {
                if (formatSensitivity == null) {
                    Map<String, FormatSensitivity.Entry> m = new LinkedHashMap<>();
                    for (FormatSensitivity.Entry e : FormatSensitivity.entries(data())) m.put(e.id(), e);
                    formatSensitivity = m;
                }
            }
        }
        FormatSensitivity.Entry e = formatSensitivity.get(id);
        if (e == null) throw new IllegalArgumentException("unknown bfcl task " + id);
        return e;
    }

    @Override
    public String name() {
        return "bfcl";
    }

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(new BfclExploration(this::data));
    }

    /**
     * Splits: {@code all}; {@code smoke} (2 tasks per category, seed 7); a category id, or several
     * joined by commas; any of these but {@code smoke} followed by {@code :sample=N} (a stable slice of
     * N tasks per category, {@link BfclData#sample}) and optionally {@code :seed=S} (default 0), e.g.
     * {@code all:sample=5:seed=7}, the tasks of {@code bfcl run --sample 5 --seed 7}.
     */
    @Override
    public List<String> tasks(String split) {
        BfclData d = data();
        String[] parts = split.split(":", -1);
        List<BfclCategory> categories;
        boolean formatSensitivitySplit = false;
        if (parts[0].equals("smoke")) {
            if (parts.length > 1)
                throw new IllegalArgumentException(
                        "split smoke is a sample already (2 per category, seed 7): '" + split + "'");
            return ids(d.sample(List.of(BfclCategory.values()), 2, 7));
        } else if (parts[0].equals("all")) {
            categories = List.of(BfclCategory.values());
        } else {
            categories = new ArrayList<>();
            for (String c : parts[0].split(",")) {
                if (c.equals(FormatSensitivity.CATEGORY)) {
                    formatSensitivitySplit = true;
                    continue;
                }
                if (!BfclCategory.ids().contains(c))
                    throw new IllegalArgumentException("unknown split '" + split + "' (" + SPLITS + ")");
                categories.add(BfclCategory.of(c));
            }
        }
        Integer sample = null;
        Long seed = null;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i];
            try {
                if (p.startsWith("sample=") && sample == null)
                    sample = Integer.parseInt(p.substring("sample=".length()));
                else if (p.startsWith("seed=") && seed == null) seed = Long.parseLong(p.substring("seed=".length()));
                else throw new IllegalArgumentException("unknown split '" + split + "' (" + SPLITS + ")");
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("split '" + split + "': " + p + " needs an integer");
            }
        }
        if (sample != null && sample < 1)
            throw new IllegalArgumentException("split '" + split + "': sample must be at least 1");
        if (seed != null && sample == null)
            throw new IllegalArgumentException("split '" + split + "': seed goes with sample=N");
        List<String> out = new ArrayList<>(ids(d.sample(categories, sample, seed == null ? 0 : seed)));
        if (formatSensitivitySplit) {
            // N base entries (all 26 configurations of each) for :sample=N; not part of "all" (prompting-mode only).
            formatSensitivity(FormatSensitivity.CATEGORY + "_0");
            for (FormatSensitivity.Entry e :
                    FormatSensitivity.sample(List.copyOf(formatSensitivity.values()), sample, seed == null ? 0 : seed))
                out.add(e.id());
        }
        return out;
    }

    private static final String SPLITS = "all, smoke, or categories joined by commas: "
            + String.join(", ", BfclCategory.ids()) + ", " + FormatSensitivity.CATEGORY
            + " (prompting-mode candidates only); then optionally :sample=N[:seed=S]";

    /** The split of {@code n} tasks per category of {@code categories} (all of them when null) chosen by {@code seed}. */
    public static String split(List<BfclCategory> categories, Integer n, long seed) {
        String set = categories.equals(List.of(BfclCategory.values()))
                ? "all"
                : String.join(",", categories.stream().map(BfclCategory::id).toList());
        return n == null ? set : set + ":sample=" + n + ":seed=" + seed;
    }

    private static List<String> ids(List<BfclTask> tasks) {
        return tasks.stream().map(BfclTask::id).toList();
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        BfclTask t = task(taskId);
        FormatSensitivity.Entry fs = formatSensitivity(taskId);
        Map<String, String> digests = new LinkedHashMap<>();
        if (fs != null) digests.put(FormatSensitivity.ID_FILE, FormatSensitivity.ID_FILE_SHA256);
        digests.put(
                t.category().questionFile(), BfclData.DIGESTS.get(t.category().questionFile()));
        if (!t.category().relevance())
            digests.put(
                    t.category().answerFile(), BfclData.DIGESTS.get(t.category().answerFile()));
        PyDict.Builder ob = PyDict.builder();
        if (fs == null) {
            ob.put("category", new PyStr(t.category().id()))
                    .put("unsatisfiable", PyBool.of(!t.category().relevance() && GoldAnswers.unsatisfiable(t)));
        } else {
            // Prompting models are graded with their names' dots (no underscore_to_dot).
            ob.put("category", new PyStr(FormatSensitivity.CATEGORY))
                    .put(
                            "unsatisfiable",
                            PyBool.of(PromptingAnswers.accepted(
                                            t,
                                            fs.config().returnFormat(),
                                            fs.config().toolCallTag())
                                    .isEmpty()))
                    .put("config", new PyStr(fs.config().id()))
                    .put("entry", new PyStr(t.id()))
                    .put("upstream_id", new PyStr(fs.upstreamId()));
        }
        PyDict options = ob.build();
        // No user simulator and no judge: the grade is a pure function of the answer.
        return new EnvironmentDef(name(), REVISION, digests, taskId, Map.of(), options);
    }

    /** Whether an EnvironmentDef marks its task as one no answer can pass. */
    public static boolean unsatisfiable(EnvironmentDef env) {
        return env.options().get("unsatisfiable") instanceof PyBool b && b.value();
    }

    /** SHA-256 of the compiled tools of both wire shapes, as the candidate is given them. */
    static PyDict toolDigests(BfclTask t) {
        PyList model = ToolCompiler.modelFunctions(t.functions(), t.category().language());
        PyDict.Builder b = PyDict.builder();
        for (ToolCompiler.Style s : List.of(ToolCompiler.Style.OPENAI_COMPLETIONS, ToolCompiler.Style.ANTHROPIC)) {
            String json =
                    PyJson.dumps(ToolCompiler.compile(model, s), PyJson.DumpOptions.DEFAULT.withEnsureAscii(false));
            b.put(s.name().toLowerCase(), new PyStr(BfclData.sha256(json.getBytes(StandardCharsets.UTF_8))));
        }
        return b.build();
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            fork.set(PyDict.empty());
            return PyDict.of("tools_sha256", toolDigests(task(env.taskId())));
        };
    }

    static ToolCompiler.Style style(String provider) {
        return provider.equalsIgnoreCase("anthropic")
                ? ToolCompiler.Style.ANTHROPIC
                : ToolCompiler.Style.OPENAI_COMPLETIONS;
    }

    /**
     * One model step answers a task: upstream's own request ({@code reference}) or the JSON tools, or
     * Brokkr's loop with the tools or the Java REPL, or Claude Code with the tools over MCP.
     */
    @Override
    public AgentInterface agentInterface() {
        // Prompting mode (no tools, upstream's system prompt, the text decoded) under the reference and loop harnesses.
        Map<String, List<String>> h = new LinkedHashMap<>();
        h.put(AgentInterface.REFERENCE, List.of("reference", "tools", PROMPTING));
        h.put(AgentInterface.LOOP, List.of("tools", Harness.REPL, PROMPTING));
        return new AgentInterface(AgentInterface.Shape.ONE_STEP, h).withClaudeCode();
    }

    /** The prompting-mode action space. */
    public static final String PROMPTING = "prompting";

    /**
     * The prompting-mode agent of a task: upstream's default configuration (its return format python, but Java/JS
     * answers decoded as Java/JS and relevance ones as python, as eval_runner.py does) over the task's model docs,
     * or a format_sensitivity entry's own configuration over its docs.
     */
    private BfclAgent prompting(String taskId, BfclTask t, brokkr.conversation.Candidate c, String own, boolean loop) {
        FormatSensitivity.Entry fs = formatSensitivity(taskId);
        if (fs != null)
            return new BfclAgent.Prompting(c, fs.config(), fs.config().returnFormat(), fs.systemPrompt(), own, loop);
        PromptFormat config = PromptFormat.DEFAULT;
        String prompt = config.systemPrompt(
                ToolCompiler.modelFunctions(t.functions(), t.category().language()));
        PromptingDecoder.ReturnFormat as = t.category().relevance()
                ? PromptingDecoder.ReturnFormat.PYTHON
                : PromptingDecoder.ReturnFormat.of(t.category().language());
        return new BfclAgent.Prompting(c, config, as, prompt, own, loop);
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            BfclTask t = task(ctx.env().taskId());
            if (formatSensitivity(ctx.env().taskId()) != null
                    && !ctx.agent().actionSpace().equals(PROMPTING))
                throw new IllegalArgumentException("format_sensitivity is for prompting-mode candidates (action space "
                        + PROMPTING + "), not " + ctx.agent().actionSpace());
            Boolean parallel = ctx.agent().options().get("parallel_tool_calls") instanceof PyBool b ? b.value() : null;
            ToolCompiler.Style style = style(ctx.agent().provider());
            BfclAgent agent = switch (ctx.agent().actionSpace()) {
                case "reference" -> new BfclAgent.Reference(ctx.candidate(), style, parallel, ctx.systemPrompt());
                case PROMPTING ->
                    prompting(
                            ctx.env().taskId(),
                            t,
                            ctx.candidate(),
                            ctx.systemPrompt(),
                            Harness.fromValue(ctx.agent().harness()).loop());
                case "tools" ->
                    Harness.fromValue(ctx.agent().harness()).claudeCode()
                            ? new BfclAgent.ClaudeCode(ctx.candidate(), parallel, ctx.systemPrompt())
                            : new BfclAgent.Tools(ctx.candidate(), style, parallel, ctx.systemPrompt());
                case Harness.REPL -> {
                    Harness h = Harness.fromValue(ctx.agent().harness());
                    if (!h.loop()) throw new IllegalArgumentException("bfcl's action space repl needs harness: loop");
                    yield new BfclAgent.Repl(ctx.candidate(), style, parallel, ctx.systemPrompt(), h);
                }
                default ->
                    throw new IllegalArgumentException(
                            "bfcl has no action space '" + ctx.agent().actionSpace() + "' (reference, tools, repl)");
            };
            BfclAgent.Attempt a = agent.attempt(t);
            if (a.failure() != null) throw a.failure();
            BfclHarness.Answer answer = a.answer();
            PyDict output = PyDict.builder()
                    .put("answer", answer.decoded() == null ? PyNone.NONE : PyObj.toJson(answer.decoded()))
                    .put("decode_error", answer.decodeError() == null ? PyNone.NONE : new PyStr(answer.decodeError()))
                    .put("recorded_calls", a.recorded().size())
                    .build();
            if (agent instanceof BfclAgent.Prompting p) {
                // The evaluator decodes the text itself, as upstream's checker decodes the raw result.
                Message.Assistant first = (Message.Assistant) a.messages().stream()
                        .filter(m -> m instanceof Message.Assistant)
                        .findFirst()
                        .orElseThrow();
                output = output.with(
                        "prompting",
                        PyDict.builder()
                                .put("text", first.content() == null ? "" : first.content())
                                .put("return_format", p.decodeAs().id())
                                .put("tool_call_tag", PyBool.of(p.config().toolCallTag()))
                                .build());
            }
            // The answer's function calls: the model's own under reference, those its recorder functions (JSON tools or
            // the REPL's methods) noted otherwise; model steps and request sizes come from the recorded calls.
            long calls = agent instanceof BfclAgent.Reference
                    ? a.messages().stream()
                            .mapToLong(m -> m instanceof Message.Assistant x
                                    ? x.toolCalls().size()
                                    : 0)
                            .sum()
                    : a.recorded().size();
            return new Interaction(
                    Transcripts.toValue(a.messages()),
                    output,
                    answer.decoded() == null ? "no_call" : "called",
                    Interaction.Counts.toolCalls(calls));
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            BfclTask t = task(run.env().taskId());
            PyDict out = run.interaction().output();
            Value evidence = run.setupEvidence().get("tools_sha256");
            boolean setup = toolDigests(t).equals(evidence);
            Value answer = out.get("answer");
            // Model answers are JSON: read back without the corpus's tuple encoding.
            BfclHarness.Answer a = answer == null || answer instanceof PyNone
                    ? BfclHarness.Answer.failed(out.get("decode_error") instanceof PyStr s ? s.value() : "no answer")
                    : BfclHarness.Answer.of(PyObj.ofValue(answer));
            boolean underscoreToDot = true;
            if (out.get("prompting") instanceof PyDict p) {
                a = PromptingDecoder.answer(
                        p.get("text").asStr(),
                        PromptingDecoder.ReturnFormat.of(p.get("return_format").asStr()),
                        p.get("tool_call_tag") instanceof PyBool b && b.value());
                underscoreToDot = false;
            }
            BfclGrader.Verdict v = BfclHarness.grade(t, a, underscoreToDot);
            List<Check> checks = new ArrayList<>();
            checks.add(new Check("setup_verified", setup));
            checks.add(new Check("checker_valid", v.valid()));
            PyDict details = PyDict.builder()
                    .put("category", run.env().options().get("category"))
                    .put("unsatisfiable", PyBool.of(unsatisfiable(run.env())))
                    .put("error_type", v.errorType() == null ? PyNone.NONE : new PyStr(v.errorType()))
                    .put("error", v.errors() == null ? PyNone.NONE : PyObj.toJson(PyObj.list(v.errors())))
                    .build();
            return new Verdict(checks, setup && v.valid() ? 1.0 : 0.0, TrustTier.DETERMINISTIC, details);
        };
    }

    /** Upstream's per-category accuracy and aggregates over the outcomes ({@link BfclScores}), as {@code bfcl run} prints them. */
    @Override
    public List<Report> reports(List<Report.Outcome> outcomes) {
        List<BfclScores.TaskResult> results = new ArrayList<>();
        List<FormatSensitivity.Result> fs = new ArrayList<>();
        for (Report.Outcome o : outcomes) {
            PyDict opts = o.environment().options();
            if (opts.get("category").asStr().equals(FormatSensitivity.CATEGORY))
                fs.add(new FormatSensitivity.Result(
                        opts.get("config").asStr(),
                        o.attempt().success(),
                        !o.attempt().completed()));
            else results.add(BfclScores.TaskResult.of(o.environment(), o.attempt()));
        }
        // format_sensitivity is reported per configuration and stays out of the per-category table and overall.
        List<Report> out = new ArrayList<>();
        if (!results.isEmpty() || fs.isEmpty()) out.add(BfclScores.report(BfclScores.summarize(results)));
        if (!fs.isEmpty()) out.add(FormatSensitivity.report(fs));
        return out;
    }

    /**
     * One task's line of {@code bfcl run --out}: its id and category, what the model gave (the answer
     * as decoded and graded, a decode error, the assistant's messages as sent) and the verdict (the
     * AST checker's validity, error type and errors, the reward, whether no answer can pass the task);
     * an infrastructure failure has no verdict and names its error.
     */
    public static PyDict outputRecord(EnvironmentDef env, Attempt a) {
        PyDict out = a.evidence().output(), details = a.evidence().details();
        List<Value> assistant = new ArrayList<>();
        if (a.evidence().transcript() instanceof PyList messages) {
            for (Value m : messages) {
                if (m instanceof PyDict d
                        && d.get("role") instanceof PyStr r
                        && r.value().equals("assistant")) assistant.add(d.without("usage"));
            }
        }
        PyDict.Builder b = PyDict.builder()
                .put("id", env.taskId())
                .put("category", env.options().get("category"))
                .put("status", a.status().wire())
                .put(
                        "model_output",
                        PyDict.builder()
                                .put("answer", out.getOrDefault("answer", PyNone.NONE))
                                .put("decode_error", out.getOrDefault("decode_error", PyNone.NONE))
                                .put("assistant", PyList.of(assistant))
                                .build());
        if (a.completed()) {
            b.put(
                    "verdict",
                    PyDict.builder()
                            .put(
                                    "valid",
                                    PyBool.of(a.check("checker_valid")
                                            .map(Check::passed)
                                            .orElse(false)))
                            .put("reward", a.reward())
                            .put("error_type", details.getOrDefault("error_type", PyNone.NONE))
                            .put("error", details.getOrDefault("error", PyNone.NONE))
                            .put("unsatisfiable", PyBool.of(unsatisfiable(env)))
                            .build());
        } else {
            b.put("verdict", PyNone.NONE).put("error", a.error() == null ? PyNone.NONE : new PyStr(a.error()));
        }
        return b.build();
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent")) throw new IllegalArgumentException("bfcl has no scripted " + role);
        if (!model.model().equals("gold"))
            throw new IllegalArgumentException("unknown bfcl candidate '" + model.model() + "' (gold)");
        return new BfclAgent.GoldCandidate(task(env.taskId()));
    }
}
