package brokkr.domains.tau2.airline;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.value.Json;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The episode protocol and grader on the airline domain, checked against upstream's recorded gold evaluations. */
class AirlineEpisodesTest {
    static Tau2Benchmark benchmark;
    static Tau2Domain airline;
    static Map<String, PyDict> gold; // gold.jsonl by task id

    @BeforeAll
    static void load() throws IOException {
        benchmark = Tau2Domains.benchmark("airline");
        airline = benchmark.domain();
        gold = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedDirs.conformance("airline", "gold.jsonl"))) {
            PyDict r = Json.parse(line).asDict();
            gold.put(r.get("task_id").asStr(), r);
        }
    }

    /** A cell of the registered benchmark with a scripted candidate opposite the scripted user, the production way. */
    static Tau2Cell run(TaskSpec task, String candidate) {
        return Tau2Cell.scriptedRun(benchmark, task.id(), candidate);
    }

    @Test
    void everyTaskScoresOneWithTheGoldAgentAndTheToolResultsAreUpstreams() {
        List<String> base = airline.split("base").stream().map(TaskSpec::id).toList();
        assertEquals(50, base.size());
        int passed = 0, communicateChecks = 0;
        for (String id : base) {
            TaskSpec t = airline.task(id);
            assertEquals(List.of(RewardType.DB, RewardType.COMMUNICATE), t.criteria().rewardBasis(), id);
            Tau2Cell r = run(t, Tau2Benchmark.GOLD);
            communicateChecks += r.communicate().size();
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), id);
            assertEquals(1.0, r.reward(), () -> id + " " + r.checks());
            assertNull(r.judge(), "NL assertions are outside airline's basis: no judge is asked (" + id + ")");
            assertTrue(r.checks().values().stream().allMatch(b -> b), () -> id + " " + r.checks());
            PyDict rec = gold.get(id);
            assertEquals(rec.get("initial_db_hash").asStr(), r.initialDbHash(), id);
            assertEquals(rec.get("final_db_hash").asStr(), r.finalDbHash(), id);
            assertEquals(rec.get("grader_gold_db_hash").asStr(), r.db().get("gold_db_hash").asStr(), id);
            assertTrue(r.db().get("gold_user_db_hash").isNone());
            List<Tau2Message.ToolResult> results = r.transcript().stream()
                    .filter(m -> m instanceof Tau2Message.ToolResult).map(m -> (Tau2Message.ToolResult) m).toList();
            List<Value> recorded = rec.get("actions").asList().items();
            assertEquals(recorded.size(), results.size(), id);
            for (int i = 0; i < results.size(); i++) {
                PyDict a = recorded.get(i).asDict();
                assertEquals(a.get("content").asStr(), results.get(i).content(), id + " call " + i);
                assertEquals(((PyBool) a.get("error")).value(), results.get(i).error(), id + " call " + i);
            }
            passed++;
        }
        assertEquals(50, passed);
        assertEquals(10, communicateChecks, "tasks 3, 7, 11, 14, 18, 23 have 1+1+1+3+1+3 infos");
    }

    /**
     * An agent that stops at once leaves the DB pristine: it passes exactly the tasks whose gold actions
     * change nothing and that have nothing to communicate (upstream's grader agrees: DB and COMMUNICATE
     * are airline's basis).
     */
    @Test
    void theStopAtOnceAgentPassesOnlyTasksWithNothingToDoOrSay() {
        Set<String> expected = new TreeSet<>(), passed = new TreeSet<>();
        for (String id : airline.split("base").stream().map(TaskSpec::id).toList()) {
            TaskSpec t = airline.task(id);
            Tau2Cell r = run(t, Tau2Benchmark.STOP);
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), id);
            PyDict rec = gold.get(id);
            boolean goldWrites = !rec.get("grader_gold_db_hash").equals(rec.get("initial_db_hash"));
            assertEquals(!goldWrites, r.dbMatch(), id);
            boolean nothingToSay = t.criteria().communicateInfo() == null || t.criteria().communicateInfo().isEmpty();
            if (!goldWrites && nothingToSay) expected.add(id);
            if (r.reward() != 0.0) passed.add(id);
        }
        assertEquals(expected, passed);
        assertTrue(passed.size() < 50 && passed.size() > 0, passed.toString());
    }
}
