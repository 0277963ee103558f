package brokkr.domains.tau2.orchestrator;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.domains.tau2.evaluator.Checks;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.Tau2Transcript;
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
import java.util.Map;

/** An {@link EpisodeResult} as one JSON object (one line of an episode log), its messages in {@link Tau2Transcript}'s shape. */
public final class EpisodeJson {
    private EpisodeJson() {}

    public static PyDict toJson(EpisodeResult r) {
        PyDict.Builder b = PyDict.builder();
        b.put("task_id", r.taskId());
        b.put("agent", r.agent());
        b.put("user", r.user());
        b.put("judge", str(r.judge()));
        b.put("termination_reason", r.termination().value());
        b.put("note", str(r.note()));
        b.put("reward", new PyFloat(r.reward()));
        b.put("infrastructure_failure", PyBool.of(r.infrastructureFailure()));
        b.put("grade", r.grade() == null ? PyNone.NONE : grade(r.grade()));
        b.put("grading_failure", str(r.gradingFailure()));
        b.put("steps", PyInt.of(r.steps()));
        b.put("tool_errors", PyInt.of(r.toolErrors()));
        b.put("duration_ms", PyInt.of(r.durationMillis()));
        b.put("usage", PyDict.of("agent", usage(r.agentUsage()), "user", usage(r.userUsage())));
        b.put("initial_db_hash", str(r.initialDbHash()));
        b.put("final_db_hash", str(r.finalDbHash()));
        b.put("messages", Tau2Transcript.toValue(r.transcript()));
        b.put("model_calls", PyDict.of("agent", calls(r.agentCalls()), "user", calls(r.userCalls()), "judge", calls(r.judgeCalls())));
        return b.build();
    }

    static Value str(String s) { return s == null ? PyNone.NONE : new PyStr(s); }

    static PyDict usage(Usage u) { return PyDict.of("input_tokens", u.inputTokens(), "output_tokens", u.outputTokens()); }

    /** A grade as JSON: reward, basis, breakdown, every check and the DB hashes (an episode log line's {@code grade}). */
    public static PyDict grade(Grade g) {
        PyDict.Builder b = PyDict.builder();
        b.put("reward", new PyFloat(g.reward()));
        b.put("evaluated", PyBool.of(g.evaluated()));
        b.put("reward_basis", g.basis() == null ? PyNone.NONE : PyList.of(g.basis().stream().map(t -> (Value) new PyStr(t.name())).toList()));
        PyDict.Builder bd = PyDict.builder();
        for (Map.Entry<RewardType, Double> e : g.breakdown().entrySet()) bd.put(e.getKey().name(), new PyFloat(e.getValue()));
        b.put("reward_breakdown", bd.build());
        PyDict.Builder checks = PyDict.builder();
        for (Map.Entry<String, Boolean> e : g.checks().entrySet()) checks.put(e.getKey(), PyBool.of(e.getValue()));
        b.put("checks", checks.build());
        Checks.DbCheck db = g.db();
        b.put("db_check", db == null ? PyNone.NONE : PyDict.of("db_match", db.dbMatch(), "gold_db_hash", db.goldDbHash(),
                "predicted_db_hash", db.predictedDbHash(), "gold_user_db_hash", db.goldUserDbHash(), "predicted_user_db_hash", db.predictedUserDbHash()));
        List<Value> nl = new ArrayList<>();
        if (g.nl() != null) for (Checks.NlAssertionCheck c : g.nl()) nl.add(PyDict.of("nl_assertion", c.nlAssertion(), "met", c.met(), "justification", c.justification()));
        b.put("nl_assertions", g.nl() == null ? PyNone.NONE : PyList.of(nl));
        List<Value> comm = new ArrayList<>();
        for (Checks.CommunicateCheck c : g.communicate()) comm.add(PyDict.of("info", c.info(), "met", c.met(), "justification", c.justification()));
        b.put("communicate_checks", PyList.of(comm));
        b.put("judge", str(g.judge()));
        b.put("note", str(g.note()));
        return b.build();
    }

    static PyList calls(List<ModelCall> calls) {
        List<Value> out = new ArrayList<>();
        for (ModelCall c : calls) {
            out.add(PyDict.builder().put("provider", str(c.provider())).put("model", str(c.model())).put("attempt", PyInt.of(c.attempt()))
                    .put("request_body", str(c.requestBody())).put("status", PyInt.of(c.status())).put("response_body", str(c.responseBody()))
                    .put("error", str(c.error())).put("started_at_ms", PyInt.of(c.startedAtMillis())).put("duration_ms", PyInt.of(c.durationMillis())).build());
        }
        return PyList.of(out);
    }
}
