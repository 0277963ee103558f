package brokkr.domains.tau2.runner;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.eval.Attempt;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An attempt of a {@link Tau2Benchmark} read as a tau2 episode, as {@code tau2 run} reports it: the
 * facts of its per-episode table (reward, termination, steps, why it lost) and its episode-log line.
 * Everything comes from the attempt's evidence: the protocol's output ({@code steps},
 * {@code tool_errors}, {@code seed}, {@code note}), the evaluator's details (the upstream grade as
 * JSON) and the recorded model calls by role.
 */
public record Tau2Attempt(Attempt attempt) {
    public String taskId() {
        return attempt.taskId();
    }

    /** Excluded from metrics: the episode could not finish, or its grading could not (a judge failure), as upstream excludes them. */
    public boolean infrastructureFailure() {
        return !attempt.completed();
    }

    public double reward() {
        return attempt.reward();
    }

    /** Upstream's termination reason; empty when the run failed before the conversation ended. */
    public String termination() {
        return attempt.evidence().termination();
    }

    public int steps() {
        return integer(output().get("steps"));
    }

    public int toolErrors() {
        return integer(output().get("tool_errors"));
    }

    /** The orchestrator's note on how the episode ended (e.g. the failed model call), or null. */
    public String note() {
        return str(output().get("note"));
    }

    /** The seed the trial's agent and user models got (upstream's per-trial seed). */
    public long seed() {
        return output().get("seed") instanceof PyInt i ? i.longValue() : 0;
    }

    /** Upstream's grade as JSON ({@code reward}, {@code reward_basis}, {@code checks}, ...), or null when the episode was not graded. */
    public PyDict grade() {
        return attempt.evidence().details().get("grade") instanceof PyDict g ? g : null;
    }

    /** Why grading could not finish (the judge failed), or null: the conversation ended, the attempt still failed. */
    public String gradingFailure() {
        if (attempt.completed() || termination().isEmpty() || termination().equals("infrastructure_error")) return null;
        return failure();
    }

    /**
     * The table's checks column: why the episode was not graded or lost, or which reward components it
     * passed ({@code pass DB NL_ASSERTION}); an outside-the-basis check never makes an episode lose.
     */
    public String checks() {
        if (gradingFailure() != null) return "grading failed: " + gradingFailure();
        PyDict g = grade();
        if (g == null) {
            if (termination().equals("infrastructure_error"))
                return "not evaluated" + (note() != null ? ": " + note() : "");
            return failure();
        }
        // Upstream's evaluate_simulation grades an episode that ended other than by an agent or user stop 0.0
        // ("Simulation terminated prematurely"), and that 0 enters the average: say so, not "not evaluated".
        if (!((PyBool) g.get("evaluated")).value())
            return "ended early (" + termination() + "): reward 0, as upstream grades it"
                    + (note() != null ? ": " + note() : "");
        Set<String> basis = g.get("reward_basis").isNone()
                ? Set.of()
                : g.get("reward_basis").asList().stream().map(Value::asStr).collect(Collectors.toSet());
        List<String> failed = new ArrayList<>();
        for (var e : g.get("checks").asDict().entries()) {
            String component = e.getKey().contains(":")
                    ? e.getKey().substring(0, e.getKey().indexOf(':'))
                    : e.getKey();
            if (!((PyBool) e.getValue()).value() && basis.contains(component)) failed.add(e.getKey());
        }
        if (!failed.isEmpty()) return "failed " + String.join(", ", failed);
        PyDict breakdown = g.get("reward_breakdown").asDict();
        if (breakdown.isEmpty()) return g.get("note") instanceof PyStr n ? n.value() : "pass";
        return "pass " + String.join(" ", breakdown.keys());
    }

    /**
     * One line of an episode log: the episode's identity ({@code agent}, {@code user}, {@code judge} as
     * the run names them), outcome, grade, usage by side, the initial and final DB hashes, the
     * transcript (messages in upstream's shape) and every model call by side with its exact request.
     */
    public PyDict toJson(String agent, String user, String judge, int trial) {
        Evidence e = attempt.evidence();
        PyDict.Builder b = PyDict.builder();
        b.put("task_id", taskId());
        b.put("agent", agent);
        b.put("user", user);
        b.put("judge", judge);
        b.put("termination_reason", termination().isEmpty() ? PyNone.NONE : new PyStr(termination()));
        b.put("note", nullable(note()));
        b.put("reward", new PyFloat(reward()));
        b.put("infrastructure_failure", PyBool.of(infrastructureFailure()));
        b.put("grade", grade() == null ? PyNone.NONE : grade());
        b.put("grading_failure", nullable(gradingFailure()));
        b.put("error", nullable(attempt.error()));
        b.put("steps", PyInt.of(steps()));
        b.put("tool_errors", PyInt.of(toolErrors()));
        b.put("duration_ms", PyInt.of(attempt.durationMillis()));
        b.put(
                "usage",
                PyDict.of(
                        "agent",
                        usage(e.usage().getOrDefault("agent", Usage.ZERO)),
                        "user",
                        usage(e.usage().getOrDefault("user", Usage.ZERO))));
        b.put("initial_db_hash", e.setup().getOrDefault("initial_db_hash", PyNone.NONE));
        // The fork holds the agent DB (retail's users have none), so the final world's hash is the final DB's.
        b.put("final_db_hash", nullable(e.finalWorldSha256()));
        b.put("messages", e.transcript());
        b.put(
                "model_calls",
                PyDict.of("agent", calls(e, "agent"), "user", calls(e, "user"), "judge", calls(e, "judge")));
        b.put("trial", PyInt.of(trial));
        b.put("seed", PyInt.of(seed()));
        return b.build();
    }

    private PyDict output() {
        return attempt.evidence().output();
    }

    /** The attempt's error without the runner's prefix. */
    private String failure() {
        String err = attempt.error() == null ? "" : attempt.error();
        return err.startsWith(Evaluation.INFRASTRUCTURE_FAILURE)
                ? err.substring(Evaluation.INFRASTRUCTURE_FAILURE.length())
                : err;
    }

    private static PyList calls(Evidence e, String role) {
        List<Value> out = new ArrayList<>();
        for (Evidence.RecordedCall rc : e.modelCalls()) {
            if (!rc.role().equals(role)) continue;
            ModelCall c = rc.call();
            out.add(PyDict.builder()
                    .put("provider", nullable(c.provider()))
                    .put("model", nullable(c.model()))
                    .put("attempt", PyInt.of(c.attempt()))
                    .put("request_body", nullable(c.requestBody()))
                    .put("status", PyInt.of(c.status()))
                    .put("response_body", nullable(c.responseBody()))
                    .put("error", nullable(c.error()))
                    .put("started_at_ms", PyInt.of(c.startedAtMillis()))
                    .put("duration_ms", PyInt.of(c.durationMillis()))
                    .build());
        }
        return PyList.of(out);
    }

    private static PyDict usage(Usage u) {
        return PyDict.of("input_tokens", u.inputTokens(), "output_tokens", u.outputTokens());
    }

    private static int integer(Value v) {
        return v instanceof PyInt i ? (int) i.longValue() : 0;
    }

    private static String str(Value v) {
        return v == null || v.isNone() ? null : v.asStr();
    }

    private static Value nullable(String s) {
        return s == null ? PyNone.NONE : new PyStr(s);
    }
}
