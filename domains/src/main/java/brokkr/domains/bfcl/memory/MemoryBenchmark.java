package brokkr.domains.bfcl.memory;

import brokkr.conversation.Candidate;
import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.CategoryAccuracy;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.domains.bfcl.multiturn.MultiTurnHarness;
import brokkr.domains.bfcl.multiturn.MultiTurnInference;
import brokkr.domains.bfcl.multiturn.StateDump;
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

/**
 * BFCL v4's memory categories on the evaluation path, domain {@code bfcl-memory}: {@code memory_kv},
 * {@code memory_rec_sum} (and {@code memory_vector} when its backend is present, {@link MemoryCategory}). A task is
 * one question ({@code memory_kv_3-customer-3}) with upstream's chain before it ({@link MemoryInference}): the
 * scenario's prerequisite conversations, the model talking to the backend's tools, each entry flushed, then the
 * question; graded by {@link AgenticChecker} on the question's last non-call message. Each entry is played by
 * upstream's function-calling loop (harness reference, action space reference or tools) or Brokkr's agent loop
 * ({@code harness: loop}, JSON tools or the Java REPL), as bfcl-multi-turn's turns are. Upstream runs a scenario's
 * prerequisites once and forks every question from its final snapshot; here each task plays them itself, so a
 * deterministic candidate sees the same memory as upstream's questions do and a sampled one its own.
 *
 * <p>Splits: {@code all} (every category present), {@code smoke} (each category's first 2), categories joined by
 * commas. Scripted candidate {@code gold} ({@link MemoryGold}); the questions it cannot derive from memory are in the
 * environment's options ({@code underivable}).
 */
public final class MemoryBenchmark implements BenchmarkProvider {
    static final String REVISION = "gorilla@" + BfclData.UPSTREAM_COMMIT;

    private volatile MemoryData data;

    public MemoryBenchmark() {}

    public MemoryBenchmark(MemoryData data) {
        this.data = data;
    }

    MemoryData data() {
        if (data == null) {
            synchronized (this) {
                if (data == null) data = MemoryData.load();
            }
        }
        return data;
    }

    @Override
    public String name() {
        return "bfcl-memory";
    }

    /** The category and question of a task id. */
    record TaskRef(MemoryCategory category, MemoryData.Question question) {}

    TaskRef task(String id) {
        MemoryCategory c;
        try {
            c = MemoryCategory.ofTask(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown bfcl-memory task " + id + ": " + e.getMessage());
        }
        MemoryData.Question q = data().question(id.replace(c.id(), "memory"));
        if (q == null || !MemoryData.idFor(q.id(), c.id()).equals(id))
            throw new IllegalArgumentException("unknown bfcl-memory task " + id);
        return new TaskRef(c, q);
    }

    @Override
    public List<String> tasks(String split) {
        List<MemoryCategory> categories;
        int per = Integer.MAX_VALUE;
        if (split.equals("all")) categories = MemoryCategory.available();
        else if (split.equals("smoke")) {
            categories = MemoryCategory.available();
            per = 2;
        } else {
            categories = new ArrayList<>();
            for (String c : split.split(",")) {
                try {
                    categories.add(MemoryCategory.of(c.strip()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown split '" + split
                            + "' (all, smoke, or categories joined by commas: "
                            + String.join(", ", MemoryCategory.availableIds()) + ")");
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (MemoryCategory c : categories) {
            List<MemoryData.Question> qs = data().questions();
            for (int i = 0; i < qs.size() && i < per; i++)
                out.add(MemoryData.idFor(qs.get(i).id(), c.id()));
        }
        return out;
    }

    @Override
    public EnvironmentDef environment(String taskId, Map<String, ModelRef> models) {
        TaskRef t = task(taskId);
        Map<String, String> digests =
                new java.util.TreeMap<>(t.category().digests(t.question().scenario()));
        boolean underivable = MemoryGold.underivable(data(), t.question().scenario(), t.category())
                .contains(t.question().id());
        PyDict options = PyDict.builder()
                .put("category", new PyStr(t.category().id()))
                .put("scenario", new PyStr(t.question().scenario()))
                .put("underivable", PyBool.of(underivable))
                .build();
        return new EnvironmentDef(name(), REVISION, new LinkedHashMap<>(digests), taskId, Map.of(), options);
    }

    /** The state hash of the first prerequisite's instance (empty memory, the pristine result directory). */
    static String initialSha(TaskRef t, MemoryData data) {
        MemoryRun run = MemoryRun.start(t.category().backend(), t.question().scenario(), MemoryInference.MODEL_NAME);
        String first = MemoryData.idFor(
                data.prereqs(t.question().scenario()).getFirst().id(),
                t.category().id());
        return MemoryConformance.stateSha(run.enter(first).instance());
    }

    @Override
    public WorldSetup worldSetup() {
        return (env, fork) -> {
            TaskRef t = task(env.taskId());
            fork.set(PyDict.empty());
            return PyDict.of("initial_state_sha", new PyStr(initialSha(t, data())));
        };
    }

    @Override
    public AgentInterface agentInterface() {
        return AgentInterface.referenceAndLoop(AgentInterface.Shape.USER_TURNS, List.of("reference", "tools"));
    }

    /** How one entry is played under the agent's harness (as bfcl-multi-turn plays a task). */
    static MemoryInference.EntryPlayer player(
            Harness harness,
            String space,
            Candidate candidate,
            ToolCompiler.Style style,
            String systemPrompt,
            brokkr.conversation.SpendLimit budget) {
        if (harness.loop())
            return (entry, tools, start) -> MultiTurnHarness.run(
                    harness,
                    space,
                    entry,
                    tools,
                    candidate,
                    style,
                    MemoryInference.MODEL_NAME,
                    systemPrompt,
                    budget,
                    start);
        if (!space.equals("reference") && !space.equals("tools"))
            throw new IllegalArgumentException("bfcl-memory has no action space '" + space
                    + "' under harness reference (reference, tools; repl needs harness: loop)");
        return (entry, tools, start) -> MultiTurnInference.run(
                entry, tools, candidate, style, MemoryInference.MODEL_NAME, systemPrompt, budget, start);
    }

    @Override
    public Protocol protocol() {
        return ctx -> {
            TaskRef t = task(ctx.env().taskId());
            ToolCompiler.Style style = ctx.agent().provider().equalsIgnoreCase("anthropic")
                    ? ToolCompiler.Style.ANTHROPIC
                    : ToolCompiler.Style.OPENAI_COMPLETIONS;
            MemoryInference.EntryPlayer p = player(
                    Harness.fromValue(ctx.agent().harness()),
                    ctx.agent().actionSpace(),
                    ctx.candidate(),
                    style,
                    ctx.systemPrompt(),
                    ctx.cellLimit());
            MemoryInference.Chain chain = MemoryInference.run(data(), t.category(), t.question(), p);
            if (chain.failure() != null) throw chain.failure();
            MemoryBackend last =
                    chain.run().testId() == null ? null : chain.run().instance();
            ctx.world().set(last == null ? PyDict.empty() : StateDump.renderState(last.state(null)));
            List<Value> entries = new ArrayList<>();
            long calls = 0;
            boolean forceQuit = false;
            for (MemoryInference.Entry e : chain.entries()) {
                List<Value> turns = new ArrayList<>();
                for (List<List<String>> turn : e.trajectory().turns()) {
                    List<Value> steps = new ArrayList<>();
                    for (List<String> step : turn) {
                        steps.add(PyList.of(
                                step.stream().map(s -> (Value) new PyStr(s)).toList()));
                        calls += step.size();
                    }
                    turns.add(PyList.of(steps));
                }
                forceQuit |= e.trajectory().forceQuit();
                entries.add(PyDict.builder()
                        .put("id", new PyStr(e.id()))
                        .put("prereq", PyBool.of(e.prereq()))
                        .put("turns", PyList.of(turns))
                        .put("force_quit", PyBool.of(e.trajectory().forceQuit()))
                        .build());
            }
            String answer = chain.answer();
            PyDict.Builder out = PyDict.builder()
                    .put("entries", PyList.of(entries))
                    .put("answer", answer == null ? PyNone.NONE : new PyStr(answer));
            if (chain.cellBudget()) out.put(CELL_BUDGET, ctx.cellLimit().describe());
            return new Interaction(
                    Transcripts.toValue(chain.messages()),
                    out.build(),
                    chain.cellBudget() ? CELL_BUDGET : forceQuit ? "force_quit" : "completed",
                    Interaction.Counts.toolCalls(calls));
        };
    }

    static final String CELL_BUDGET = "cell_budget";

    @Override
    public Evaluator evaluator() {
        return (run, models) -> {
            TaskRef t = task(run.env().taskId());
            Value ev = run.setupEvidence().get("initial_state_sha");
            boolean setup = ev instanceof PyStr s && s.value().equals(initialSha(t, data()));
            Value a = run.interaction().output().get("answer");
            AgenticChecker.Verdict v = a instanceof PyStr s
                    ? AgenticChecker.check(s.value(), t.question().answers())
                    // _evaluate_single_agentic_entry: no step of the question's turn ended without a call
                    : new AgenticChecker.Verdict(
                            false,
                            "Cannot find the last chat message that is not a function call.",
                            "agentic:no_last_message");
            boolean budget = run.interaction().output().get(CELL_BUDGET) == null;
            List<Check> checks =
                    new ArrayList<>(List.of(new Check("setup_verified", setup), new Check("checker_valid", v.valid())));
            if (!budget) checks.add(new Check("within_cell_budget", false));
            PyDict details = PyDict.builder()
                    .put("category", new PyStr(t.category().id()))
                    .put("error_type", v.errorType() == null ? PyNone.NONE : new PyStr(v.errorType()))
                    .put("error_message", v.errorMessage() == null ? PyNone.NONE : new PyStr(v.errorMessage()))
                    .build();
            return new Verdict(checks, setup && v.valid() && budget ? 1.0 : 0.0, TrustTier.DETERMINISTIC, details);
        };
    }

    /**
     * Upstream's memory accuracy: per category the share of questions graded valid, and the memory summary
     * ({@code summary_memory}, the unweighted mean of memory_kv, memory_vector and memory_rec_sum; null until all
     * three were run).
     */
    @Override
    public List<Report> reports(List<Report.Outcome> outcomes) {
        return List.of(CategoryAccuracy.report(
                "memory accuracy per category",
                MemoryCategory.ALL.stream().map(MemoryCategory::id).toList(),
                outcomes,
                "memory_summary_accuracy",
                "summary = unweighted mean of memory_kv, memory_vector and memory_rec_sum (upstream's "
                        + "summary_memory); null until all three were run; infrastructure failures are left out"));
    }

    @Override
    public Candidate scripted(String role, ModelRef model, EnvironmentDef env) {
        if (!role.equals("agent")) throw new IllegalArgumentException("bfcl-memory has no scripted " + role);
        if (!model.model().equals("gold"))
            throw new IllegalArgumentException("unknown bfcl-memory candidate '" + model.model() + "' (gold)");
        TaskRef t = task(env.taskId());
        return new MemoryGold(data(), t.category(), t.question().scenario());
    }
}
