package brokkr.domains.tau2.banking;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.value.Json;
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
 * Dual control over one shared DB, end to end: the gold agent and the scripted user (who performs the
 * gold user actions with the user's tools) through the episode protocol, graded as upstream grades (DB,
 * ACTION with compare_args, the NL assertion of task_102), against upstream's recorded gold evaluations.
 */
class BankingEpisodesTest {
    static Tau2Benchmark benchmark;
    static Tau2Domain banking;
    static Map<String, PyDict> gold;

    @BeforeAll
    static void load() throws IOException {
        benchmark = Tau2Domains.benchmark("banking_knowledge");
        banking = benchmark.domain();
        gold = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedDirs.conformance("banking_knowledge", "gold.jsonl"))) {
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
        List<String> base = banking.split("base").stream().map(TaskSpec::id).toList();
        assertEquals(97, base.size());
        int passed = 0, withAction = 0, userCalls = 0;
        for (String id : base) {
            TaskSpec t = banking.task(id);
            Tau2Cell r = run(t, Tau2Benchmark.GOLD);
            PyDict rec = gold.get(id);
            PyDict ev = rec.get("evaluator").asDict();
            // the gold agent stops, or (task_034) its closing transfer ends the episode on the user's side
            assertTrue(r.termination() == TerminationReason.AGENT_STOP || r.termination() == TerminationReason.USER_STOP, id + " " + r.termination());
            assertEquals(1.0, r.reward(), () -> id + " " + r.checks());
            assertEquals(((PyFloat) ev.get("reward")).value(), r.reward(), id);
            if (t.criteria().basisIncludes(RewardType.ACTION)) {
                withAction++;
                assertEquals(1.0, r.breakdown("ACTION"), id);
            }
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
            // agent and user share one DB: both hashes are the same value
            assertEquals(r.db().get("predicted_db_hash"), r.db().get("predicted_user_db_hash"), id);
            passed++;
        }
        assertEquals(97, passed);
        assertEquals(9, withAction, "9 tasks are graded on ACTION");
        assertEquals(102, userCalls, "dual control: the user performs the gold user actions");
    }

    /** Nothing done: every task's DB check (or its ACTION check) fails. */
    @Test
    void theStopAtOnceAgentScoresZeroOnEveryTask() {
        int zero = 0;
        for (String id : banking.split("base").stream().map(TaskSpec::id).toList()) {
            TaskSpec t = banking.task(id);
            Tau2Cell r = run(t, Tau2Benchmark.STOP);
            assertTrue(r.termination() == TerminationReason.AGENT_STOP || r.termination() == TerminationReason.USER_STOP, id + " " + r.termination());
            if (r.reward() == 0.0) zero++;
        }
        assertTrue(zero > 80, "the stop agent fails almost every task (" + zero + "/97)");
    }
}
