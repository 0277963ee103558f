package brokkr.domains.bfcl.multiturn;

import brokkr.conversation.Candidate;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.CategoryAccuracy;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.eval.AgentInterface;
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
import brokkr.python.PyObjects;
import brokkr.repl.Harness;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * BFCL v4 multi-turn on the evaluation path, domain {@code bfcl-multi-turn}: the categories
 * {@code multi_turn_base}, {@code multi_turn_miss_func}, {@code multi_turn_miss_param},
 * {@code multi_turn_long_context}. The protocol is upstream's function-calling inference loop
 * ({@link MultiTurnInference}: per turn the user message(s), model steps until one has no call, at most
 * {@value MultiTurnInference#MAXIMUM_STEP_LIMIT} + 1 per turn; held-out functions at their turn) over the
 * task's backend world; the evaluator is upstream's checker ({@link MultiTurnChecker}) on the decoded steps.
 * The engine's world cell holds the canonical state dump of the model's instances (the live world is the
 * protocol's); the setup's evidence is the initial state's per-class hashes.
 *
 * <p>Splits: {@code all}; a category, or several joined by commas; {@code smoke} = the first 2 tasks of each
 * category. Scripted candidate ({@code provider: scripted}): {@code gold} (the ground truth, one step per turn).
 * Under {@code harness: loop} (action space {@code tools} or {@code repl}) Brokkr's agent loop plays the turns
 * ({@link MultiTurnHarness}); the trajectory, and so the grading, is of the same shape.
 */
public final class MultiTurnBenchmark implements BenchmarkProvider {
    static final String REVISION = "gorilla@" + BfclData.UPSTREAM_COMMIT;
    /** The model name the inference and the checker use for instance variables (it shows only where a string argument holds a call pattern). */
    public static final String MODEL_NAME = "brokkr-multi-turn";

    private volatile MultiTurnData data;
    private volatile MultiTurnTools tools;

    public MultiTurnBenchmark() {}

    /** Over already loaded data (tests). */
    public MultiTurnBenchmark(MultiTurnData data, MultiTurnTools tools) {
        this.data = data;
        this.tools = tools;
    }

    private MultiTurnData data() {
        if (data == null) {
            synchronized (this) {
                if (data == null) {
                    tools = MultiTurnTools.load();
                    data = MultiTurnData.load();
                }
            }
        }
        return data;
    }

    private MultiTurnTools tools() {
        data();
        return tools;
    }

    MultiTurnData.Task task(String id) {
        MultiTurnData.Task t = data().task(id);
        if (t == null) throw new IllegalArgumentException("unknown bfcl-multi-turn task " + id);
        return t;
    }

    @Override
    public String name() {
        return "bfcl-multi-turn";
    }

    @Override
    public Optional<Exploration> exploration() {
        return Optional.of(new MultiTurnExploration(this::data, this::tools));
    }

    @Override
    public List<String> tasks(String split) {
        List<String> categories;
        int perCategory = Integer.MAX_VALUE;
        if (split.equals("all")) {
            categories = MultiTurnData.CATEGORIES;
        } else if (split.equals("smoke")) {
            categories = MultiTurnData.CATEGORIES;
            perCategory = 2;
        } else {
            categories = List.of(split.split(","));
            for (String c : categories) {
                if (!MultiTurnData.CATEGORIES.contains(c)) {
                    throw new IllegalArgumentException(
                            "unknown split '" + split + "' (all, smoke, or categories joined by commas: "
                                    + String.join(", ", MultiTurnData.CATEGORIES) + ")");
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (String c : categories) {
            int n = 0;
            for (MultiTurnData.Task t : data().all()) {
                if (t.category().equals(c) && n++ < perCategory) out.add(t.id());
            }
        }
        return out;
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        MultiTurnData.Task t = task(taskId);
        Map<String, String> digests = new LinkedHashMap<>();
        digests.put(
                "BFCL_v4_" + t.category() + ".json", MultiTurnData.DIGESTS.get("BFCL_v4_" + t.category() + ".json"));
        String answers = "possible_answer/BFCL_v4_" + t.category() + ".json";
        digests.put(answers, MultiTurnData.DIGESTS.get(answers));
        for (String cls : t.involvedClasses()) {
            String[] f = MultiTurnTools.FILES.get(cls);
            digests.put("multi_turn_func_doc/" + f[0], f[1]);
        }
        if (t.setup().longContext()) digests.put(LongContextData.UPSTREAM_PATH, LongContextData.SHA256);
        PyDict options =
                PyDict.builder().put("category", new PyStr(t.category())).build();
        return new EnvironmentDef(name(), REVISION, digests, taskId, Map.of(), options);
    }

    /** The initial world's per-class state hashes ({@code execute_multi_turn_func_call([], ...)}). */
    static PyDict initialShas(MultiTurnData.Task t) {
        World w = Executor.execute(World.EMPTY, t.setup(), MODEL_NAME, false, List.of())
                .world();
        return stateShas(t, w);
    }

    private static PyDict stateShas(MultiTurnData.Task t, World w) {
        PyDict.Builder b = PyDict.builder();
        for (String cls : t.involvedClasses()) {
            Backend inst = w.instance(Executor.variable(MODEL_NAME, false, t.id(), cls));
            b.put(cls, new PyStr(StateDump.sha(StateDump.renderState(inst.state(w.globals())))));
        }
        return b.build();
    }

    private static PyDict stateDump(MultiTurnData.Task t, World w) {
        PyDict.Builder b = PyDict.builder();
        for (String cls : t.involvedClasses()) {
            Backend inst = w.instance(Executor.variable(MODEL_NAME, false, t.id(), cls));
            if (inst != null) b.put(cls, StateDump.renderState(inst.state(w.globals())));
        }
        return b.build();
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            MultiTurnData.Task t = task(env.taskId());
            World w = Executor.execute(World.EMPTY, t.setup(), MODEL_NAME, false, List.of())
                    .world();
            fork.set(stateDump(t, w));
            return PyDict.of("initial_state_sha", stateShas(t, w));
        };
    }

    /** Upstream's fixed user turns; upstream's loop (as reference or tools), or Brokkr's loop with tools or the Java REPL. */
    @Override
    public AgentInterface agentInterface() {
        return AgentInterface.referenceAndLoop(AgentInterface.Shape.USER_TURNS, List.of("reference", "tools"));
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            MultiTurnData.Task t = task(ctx.env().taskId());
            ToolCompiler.Style style = ctx.agent().provider().equalsIgnoreCase("anthropic")
                    ? ToolCompiler.Style.ANTHROPIC
                    : ToolCompiler.Style.OPENAI_COMPLETIONS;
            Harness harness = Harness.fromValue(ctx.agent().harness());
            String space = ctx.agent().actionSpace();
            MultiTurnInference.Trajectory tr;
            if (harness.loop()) {
                tr = MultiTurnHarness.run(
                        harness,
                        space,
                        t,
                        tools(),
                        ctx.candidate(),
                        style,
                        MODEL_NAME,
                        ctx.systemPrompt(),
                        ctx.cellLimit());
            } else {
                // Upstream's loop executes every step's calls against the backends, so it is both the reference
                // candidate's protocol and a tool-calling loop: the notebook's %run (action space tools) runs it too.
                if (!space.equals("reference") && !space.equals("tools")) {
                    throw new IllegalArgumentException("bfcl-multi-turn has no action space '" + space
                            + "' under harness reference (reference, tools; repl needs harness: loop)");
                }
                tr = MultiTurnInference.run(
                        t, tools(), ctx.candidate(), style, MODEL_NAME, ctx.systemPrompt(), ctx.cellLimit());
            }
            if (tr.failure() != null) throw tr.failure();
            ctx.world().set(stateDump(t, tr.world()));
            List<Value> turns = new ArrayList<>();
            for (List<List<String>> turn : tr.turns()) {
                List<Value> steps = new ArrayList<>();
                for (List<String> step : turn)
                    steps.add(PyList.of(
                            step.stream().map(s -> (Value) new PyStr(s)).toList()));
                turns.add(PyList.of(steps));
            }
            PyDict.Builder out =
                    PyDict.builder().put("turns", PyList.of(turns)).put("force_quit", PyBool.of(tr.forceQuit()));
            // Only a task the cell's budget stopped says so (what was spent of what), so other records read as before.
            if (tr.cellBudget()) out.put(CELL_BUDGET, ctx.cellLimit().describe());
            PyDict output = out.build();
            // The domain calls are the trajectory's (each step's decoded calls, however the model expressed them: JSON
            // tools or Java in a REPL snippet); model steps and request sizes come from the recorded calls.
            long calls = tr.turns().stream()
                    .flatMap(List::stream)
                    .mapToLong(List::size)
                    .sum();
            return new Interaction(
                    Transcripts.toValue(tr.messages()),
                    output,
                    tr.cellBudget() ? CELL_BUDGET : tr.forceQuit() ? "force_quit" : "completed",
                    Interaction.Counts.toolCalls(calls));
        };
    }

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            MultiTurnData.Task t = task(run.env().taskId());
            boolean setup = initialShas(t).equals(run.setupEvidence().get("initial_state_sha"));
            Value turns = run.interaction().output().get("turns");
            MultiTurnChecker.Verdict v =
                    MultiTurnChecker.check(t, turns == null ? PyNone.NONE : PyObjects.fromValue(turns), MODEL_NAME);
            List<Check> checks =
                    new ArrayList<>(List.of(new Check("setup_verified", setup), new Check("checker_valid", v.valid())));
            Value budget = run.interaction().output().get(CELL_BUDGET);
            // A task the cell's budget stopped fails a check of its own, beside the checker's verdict of its partial
            // trajectory (upstream grades a trajectory cut short as force-terminated), and says what was spent.
            if (budget != null) checks.add(new Check(WITHIN_CELL_BUDGET, false));
            boolean withinBudget = budget == null;
            PyDict.Builder details = PyDict.builder()
                    .put("category", new PyStr(t.category()))
                    .put("error_type", v.errorType() == null ? PyNone.NONE : new PyStr(v.errorType()))
                    .put(
                            "error_message",
                            v.errorMessage() == null ? PyNone.NONE : new PyStr(PyObjects.str(v.errorMessage())));
            if (budget != null) details.put("stopped_by_cell_budget", budget);
            return new Verdict(
                    checks, setup && v.valid() && withinBudget ? 1.0 : 0.0, TrustTier.DETERMINISTIC, details.build());
        };
    }

    /** The termination, output key and (failed) check of a task stopped by the cell's budget ({@code budget.per_cell}). */
    static final String CELL_BUDGET = "cell_budget", WITHIN_CELL_BUDGET = "within_cell_budget";

    /**
     * Upstream's multi-turn accuracy: per category the share of tasks graded valid, and the overall multi-turn
     * accuracy as the unweighted mean of the four category accuracies (null until all four were run).
     */
    @Override
    public List<Report> reports(List<Report.Outcome> outcomes) {
        return List.of(CategoryAccuracy.report(
                "multi-turn accuracy per category",
                MultiTurnData.CATEGORIES,
                outcomes,
                "multi_turn_overall_accuracy",
                "overall = unweighted mean of the four category accuracies (upstream's multi-turn "
                        + "overall); null until all four categories were run; infrastructure failures are left out"));
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent")) throw new IllegalArgumentException("bfcl-multi-turn has no scripted " + role);
        if (!model.model().equals("gold"))
            throw new IllegalArgumentException("unknown bfcl-multi-turn candidate '" + model.model() + "' (gold)");
        return new MultiTurnInference.GoldCandidate(task(env.taskId()));
    }
}
