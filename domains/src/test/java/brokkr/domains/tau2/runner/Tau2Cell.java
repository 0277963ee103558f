package brokkr.domains.tau2.runner;

import brokkr.conversation.Candidate;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One cell of a tau2 benchmark run the production way ({@link Evaluation#evaluate}: world setup, the
 * protocol, the evaluator), read back from the attempt's evidence for tests. Test models are given by
 * name under provider {@value #TEST}; the benchmark's own scripted models under {@code scripted}.
 */
public record Tau2Cell(Attempt attempt) {
    /** The provider name of the models a test supplies. */
    public static final String TEST = "test";

    /** A test model reference. */
    public static ModelRef test(String name) {
        return new ModelRef(TEST, name);
    }

    /** A scripted model reference (the benchmark's own). */
    public static ModelRef scripted(String name) {
        return new ModelRef(BenchmarkProvider.SCRIPTED, name);
    }

    /**
     * Runs {@code taskId} of {@code benchmark}, repetition 0, with the candidate {@code agent} (action space
     * {@code tools}, reference harness), the roles {@code user} and {@code judge} (null for the benchmark's
     * default) and the environment options; test models come from {@code models} by model name.
     */
    public static Tau2Cell run(
            Tau2Benchmark benchmark,
            String taskId,
            ModelRef agent,
            ModelRef user,
            ModelRef judge,
            PyDict options,
            Map<String, Candidate> models) {
        Map<String, ModelRef> roles = new LinkedHashMap<>();
        if (user != null) roles.put("user", user);
        if (judge != null) roles.put("judge", judge);
        Evaluation.Cell cell = new Evaluation.Cell(
                benchmark, benchmark.environment(taskId, roles, options), AgentDef.of(agent, "tools", null), null, 0);
        Function<ModelRef, Candidate> resolve = ref -> {
            Candidate c = ref.provider().equals(TEST) ? models.get(ref.model()) : null;
            if (c == null) throw new IllegalArgumentException("no test model " + ref);
            return c;
        };
        // The production path: the one planner's checks and the one runner, as every face runs a cell.
        return new Tau2Cell(Runner.attempts(
                        Planner.of(List.of(new Plan.Unit(cell, agent.model())), resolve), Policy.of(1))
                .getFirst());
    }

    /** The scripted candidate {@code agent} opposite the scripted user, judged by the default (known-verdict) judge. */
    public static Tau2Cell scriptedRun(Tau2Benchmark benchmark, String taskId, String agent) {
        return run(benchmark, taskId, scripted(agent), null, null, PyDict.empty(), Map.of());
    }

    public Tau2Attempt view() {
        return new Tau2Attempt(attempt);
    }

    /** The recorded transcript, decoded. */
    public List<Tau2Message> transcript() {
        return Tau2Transcript.fromValue(attempt.evidence().transcript());
    }

    public TerminationReason termination() {
        return Tau2Evaluator.termination(attempt.evidence().termination());
    }

    public double reward() {
        return attempt.reward();
    }

    /** Excluded from metrics (the episode or its grading could not finish). */
    public boolean infrastructureFailure() {
        return !attempt.completed();
    }

    public String note() {
        return view().note();
    }

    public int steps() {
        return view().steps();
    }

    public int toolErrors() {
        return view().toolErrors();
    }

    /** The grade the evaluator recorded ({@code details.grade}); fails the test when there is none. */
    public PyDict grade() {
        PyDict g = view().grade();
        if (g == null) throw new AssertionError("no grade: " + attempt.status() + " " + attempt.error());
        return g;
    }

    /** Every check of the grade, keyed as upstream's checks ({@code DB}, {@code ACTION:<id>}, ...), in order. */
    public Map<String, Boolean> checks() {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (var e : grade().get("checks").asDict().entries()) m.put(e.getKey(), ((PyBool) e.getValue()).value());
        return m;
    }

    /** The checks of one component ({@code ACTION}, {@code ENV_ASSERTION}, ...) in order. */
    public List<Boolean> checks(String component) {
        List<Boolean> out = new ArrayList<>();
        checks().forEach((k, v) -> {
            if (k.startsWith(component + ":")) out.add(v);
        });
        return out;
    }

    /** The checks of components in the reward basis that failed, in order. */
    public List<String> failedBasisChecks() {
        Value basis = grade().get("reward_basis");
        if (basis.isNone()) return List.of();
        Set<String> in = basis.asList().stream().map(Value::asStr).collect(Collectors.toSet());
        return checks().entrySet().stream()
                .filter(e -> !e.getValue())
                .filter(e -> in.contains(
                        e.getKey().contains(":")
                                ? e.getKey().substring(0, e.getKey().indexOf(':'))
                                : e.getKey()))
                .map(Map.Entry::getKey)
                .toList();
    }

    public boolean evaluated() {
        return ((PyBool) grade().get("evaluated")).value();
    }

    /** The judge asked, or null. */
    public String judge() {
        return str(grade().get("judge"));
    }

    public String gradeNote() {
        return str(grade().get("note"));
    }

    /** A component's reward in the breakdown, or null. */
    public Double breakdown(String component) {
        Value v = grade().get("reward_breakdown").asDict().get(component);
        return v == null ? null : ((brokkr.value.PyFloat) v).value();
    }

    /** The grade's DB check ({@code db_match}, {@code gold_db_hash}, {@code predicted_db_hash}, user hashes). */
    public PyDict db() {
        return grade().get("db_check").asDict();
    }

    public boolean dbMatch() {
        return ((PyBool) db().get("db_match")).value();
    }

    /** The hash of the task's initial DB the world setup recorded. */
    public String initialDbHash() {
        return str(attempt.evidence().setup().get("initial_db_hash"));
    }

    /** The final world's DB hash, as the grader computed it on the world the episode left. */
    public String finalDbHash() {
        return str(db().get("predicted_db_hash"));
    }

    /** The communicate checks' results in order. */
    public List<Boolean> communicate() {
        return grade().get("communicate_checks").asList().stream()
                .map(c -> ((PyBool) c.asDict().get("met")).value())
                .toList();
    }

    private static String str(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }
}
