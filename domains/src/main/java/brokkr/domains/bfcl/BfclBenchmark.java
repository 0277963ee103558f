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
        BfclTask t = byId.get(id);
        if (t == null) throw new IllegalArgumentException("unknown bfcl task " + id);
        return t;
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
        return ids(d.sample(categories, sample, seed == null ? 0 : seed));
    }

    private static final String SPLITS = "all, smoke, or categories joined by commas: "
            + String.join(", ", BfclCategory.ids()) + "; then optionally :sample=N[:seed=S]";

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
        Map<String, String> digests = new LinkedHashMap<>();
        digests.put(
                t.category().questionFile(), BfclData.DIGESTS.get(t.category().questionFile()));
        if (!t.category().relevance())
            digests.put(
                    t.category().answerFile(), BfclData.DIGESTS.get(t.category().answerFile()));
        PyDict options = PyDict.builder()
                .put("category", new PyStr(t.category().id()))
                .put("unsatisfiable", PyBool.of(!t.category().relevance() && GoldAnswers.unsatisfiable(t)))
                .build();
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
        return AgentInterface.referenceAndLoop(AgentInterface.Shape.ONE_STEP, List.of("reference", "tools"))
                .withClaudeCode();
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            BfclTask t = task(ctx.env().taskId());
            Boolean parallel = ctx.agent().options().get("parallel_tool_calls") instanceof PyBool b ? b.value() : null;
            ToolCompiler.Style style = style(ctx.agent().provider());
            BfclAgent agent = switch (ctx.agent().actionSpace()) {
                case "reference" -> new BfclAgent.Reference(ctx.candidate(), style, parallel, ctx.systemPrompt());
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
            BfclGrader.Verdict v = BfclHarness.grade(t, a, true);
            List<Check> checks = new ArrayList<>();
            checks.add(new Check("setup_verified", setup));
            checks.add(new Check("checker_valid", v.valid()));
            PyDict details = PyDict.builder()
                    .put("category", new PyStr(t.category().id()))
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
        for (Report.Outcome o : outcomes) results.add(BfclScores.TaskResult.of(o.environment(), o.attempt()));
        return List.of(BfclScores.report(BfclScores.summarize(results)));
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
