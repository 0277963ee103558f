package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.ToolCall;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 114 retail gold episodes against upstream's own orchestrator and evaluators
 * ({@code domains/src/test/oracle/tau2_gold_episode_oracle.py}, recorded in
 * {@code retail-gold-episodes.json}): same termination, step and error counts, every message (tool
 * results included) identical, and the same DB / action / communicate verdicts, where upstream's DB check
 * rebuilt the predicted environment by replaying the trajectory and Brokkr reads the final world.
 */
class RetailGoldEpisodeOracleTest {

    @Test
    void goldEpisodesAreUpstreamsMessageForMessage() throws Exception {
        PyDict oracle;
        try (InputStream in = getClass().getResourceAsStream("retail-gold-episodes.json")) {
            oracle = Json.read(in.readAllBytes()).asDict();
        }
        Tau2Domain domain = Tau2Domains.load("retail");
        PyList results = oracle.get("results").asList();
        assertEquals(114, results.size());
        for (Value v : results) {
            PyDict up = v.asDict();
            TaskSpec t = domain.task(up.get("task_id").asStr());
            // a cell of the registered benchmark: scripted gold opposite the scripted user, the production way
            Tau2Cell r = Tau2Cell.scriptedRun(Tau2Domains.benchmark("retail"), t.id(), Tau2Benchmark.GOLD);
            String id = t.id();
            assertEquals(up.get("termination_reason").asStr(), r.termination().value(), id);
            assertEquals(((PyInt) up.get("steps")).longValue(), r.steps(), id);
            assertEquals(((PyInt) up.get("errors")).longValue(), r.toolErrors(), id);
            List<Value> mine = new ArrayList<>();
            for (Tau2Message m : r.transcript()) mine.add(json(m));
            assertEquals(up.get("messages").asList().items(), mine, id);
            assertEquals(((PyBool) up.get("db_match")).value(), r.dbMatch(), id);
            assertEquals(
                    t.criteria().actionsOrEmpty().size(), r.checks("ACTION").size(), id);
            assertEquals(bools(up.get("action_checks")), r.checks("ACTION"), id);
            assertEquals(bools(up.get("communicate_checks")), r.communicate(), id);

            // An agent that stops at once: upstream's DB verdict (the 11 tasks whose gold actions write nothing match).
            PyDict stopUp = up.get("stop_agent").asDict();
            Tau2Cell s = Tau2Cell.scriptedRun(Tau2Domains.benchmark("retail"), t.id(), Tau2Benchmark.STOP);
            assertEquals(
                    stopUp.get("termination_reason").asStr(), s.termination().value(), id);
            assertEquals(((PyBool) stopUp.get("db_match")).value(), s.dbMatch(), id);
        }
    }

    static List<Boolean> bools(Value v) {
        return v.asList().stream().map(b -> ((PyBool) b).value()).toList();
    }

    /** A message in the oracle's shape ({@code message_json} of the oracle script). */
    static PyDict json(Tau2Message m) {
        return switch (m) {
            case Tau2Message.ToolResult t ->
                PyDict.of(
                        "role",
                        "tool",
                        "id",
                        t.id(),
                        "content",
                        t.content(),
                        "requestor",
                        t.requestor().wire(),
                        "error",
                        t.error());
            case Tau2Message.Participant p -> {
                Value calls = PyNone.NONE;
                if (p.isToolCall()) {
                    List<Value> cs = new ArrayList<>();
                    String requestor = p instanceof Tau2Message.Agent ? "assistant" : "user";
                    for (ToolCall c : p.toolCalls())
                        cs.add(PyDict.of(
                                "id", c.id(), "name", c.name(), "arguments", c.arguments(), "requestor", requestor));
                    calls = PyList.of(cs);
                }
                yield PyDict.of(
                        "role",
                        p.role(),
                        "content",
                        p.content() == null ? PyNone.NONE : new PyStr(p.content()),
                        "tool_calls",
                        calls);
            }
        };
    }
}
