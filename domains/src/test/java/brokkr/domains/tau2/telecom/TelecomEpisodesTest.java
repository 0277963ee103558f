package brokkr.domains.tau2.telecom;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dual control end to end: the gold agent and the scripted user (who performs the gold user actions
 * with the user's tools, requestor {@code user}) through the episode protocol, graded as upstream
 * grades (env assertions on the synced final world, ACTION where in the basis), against upstream's
 * recorded gold evaluations (gold.jsonl's {@code evaluator}).
 */
class TelecomEpisodesTest {
    static Tau2Benchmark benchmark;
    static Tau2Domain telecom;
    static Map<String, PyDict> gold;

    @BeforeAll
    static void load() throws IOException {
        benchmark = Tau2Domains.benchmark("telecom");
        telecom = benchmark.domain();
        gold = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedDirs.conformance("telecom", "gold.jsonl"))) {
            PyDict r = Json.parse(line).asDict();
            gold.put(r.get("task_id").asStr(), r);
        }
    }

    /** A cell of the registered benchmark with a scripted candidate opposite the scripted user, the production way. */
    static Tau2Cell run(TaskSpec task, String candidate) {
        return Tau2Cell.scriptedRun(benchmark, task.id(), candidate);
    }

    @Test
    void everyTaskScoresOneWithTheGoldAgentAndUser() {
        List<String> base = telecom.split("base").stream().map(TaskSpec::id).toList();
        assertEquals(114, base.size());
        int passed = 0, withAction = 0, userCalls = 0, dbMatches = 0;
        for (String id : base) {
            TaskSpec t = telecom.task(id);
            Tau2Cell r = run(t, Tau2Benchmark.GOLD);
            PyDict rec = gold.get(id);
            PyDict ev = rec.get("evaluator").asDict();
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), id);
            assertEquals(1.0, r.reward(), () -> id + " " + r.checks());
            assertEquals(((PyFloat) ev.get("reward")).value(), r.reward(), id);
            // the grade keys env assertions by function name; each task names a function once, so the list is the assertions'
            List<Boolean> met = r.checks("ENV_ASSERTION");
            assertEquals(t.criteria().envAssertions() == null ? 0 : t.criteria().envAssertions().size(), met.size(), id);
            assertEquals(ev.get("env_assertions_met").asList().stream().map(v -> ((PyBool) v).value()).toList(), met, id);
            assertEquals(((PyBool) ev.get("db_match")).value(), r.dbMatch(), id);
            if (r.dbMatch()) dbMatches++;
            if (t.criteria().basisIncludes(RewardType.ACTION)) {
                withAction++;
                assertEquals(1.0, r.breakdown("ACTION"), id);
            }
            // the gold calls' results, in gold order, are upstream's (user calls with the user's tools)
            List<Tau2Message.ToolResult> results = r.transcript().stream()
                    .filter(m -> m instanceof Tau2Message.ToolResult).map(m -> (Tau2Message.ToolResult) m).toList();
            List<Value> recorded = rec.get("actions").asList().items();
            assertEquals(recorded.size(), results.size(), id);
            for (int i = 0; i < results.size(); i++) {
                PyDict a = recorded.get(i).asDict();
                assertEquals(a.get("requestor").asStr(), results.get(i).requestor().wire(), id + " call " + i);
                assertEquals(a.get("content").asStr(), results.get(i).content(), id + " call " + i);
                if (results.get(i).requestor() == Requestor.USER) userCalls++;
            }
            assertEquals(rec.get("initial_db_hash").asStr(), r.initialDbHash(), id);
            assertEquals(rec.get("final_db_hash").asStr(), r.finalDbHash(), id);
            assertEquals(rec.get("final_user_db_hash").asStr(), r.db().get("predicted_user_db_hash").asStr(), id);
            passed++;
        }
        assertEquals(114, passed);
        assertEquals(20, withAction, "20 tasks grade ENV_ASSERTION and ACTION");
        assertTrue(userCalls > 100, "dual control: the user performs gold actions (" + userCalls + ")");
        assertEquals(114 - 71, dbMatches, "as upstream: the DB check fails in 71 gold episodes (no sync on the grader's gold path)");
    }

    /** Nothing fixed, nothing transferred: every telecom task's assertions (or its ACTION check) fail. */
    @Test
    void theStopAtOnceAgentScoresZeroOnEveryTask() {
        for (String id : telecom.split("base").stream().map(TaskSpec::id).toList()) {
            TaskSpec t = telecom.task(id);
            Tau2Cell r = run(t, Tau2Benchmark.STOP);
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), id);
            assertEquals(0.0, r.reward(), () -> id + " " + r.checks());
            assertFalse(r.checks("ENV_ASSERTION").isEmpty(), id);
        }
    }
}
