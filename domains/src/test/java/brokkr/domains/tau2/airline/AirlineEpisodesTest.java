package brokkr.domains.tau2.airline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.Episode;
import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.domains.tau2.orchestrator.EpisodeResult;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.domains.tau2.user.ScriptedUser;
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
    static AirlineDomain airline;
    static EpisodeEnvironment<Worlds> env;
    static Map<String, TaskSpec> tasks;
    static Map<String, PyDict> gold; // gold.jsonl by task id

    @BeforeAll
    static void load() throws IOException {
        airline = new AirlineDomain(new Tau2Data(SharedDirs.tau2Data()));
        env = airline.episodeEnvironment();
        tasks = airline.taskSpecs();
        gold = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedDirs.conformance("airline", "gold.jsonl"))) {
            PyDict r = Json.parse(line).asDict();
            gold.put(r.get("task_id").asStr(), r);
        }
    }

    static EpisodeResult run(TaskSpec task, AgentSide agent, NlJudge judge) {
        UserSide user = new UserSide("scripted-user", new ScriptedUser(task), airline.userSystemPrompt(task.raw()), env.userTools(task));
        return Episode.run(env, task, agent, user, judge, EpisodeOptions.DEFAULT);
    }

    @Test
    void everyTaskScoresOneWithTheGoldAgentAndTheToolResultsAreUpstreams() {
        List<String> base = airline.split("base");
        assertEquals(50, base.size());
        int passed = 0, communicateChecks = 0;
        for (String id : base) {
            TaskSpec t = tasks.get(id);
            assertEquals(List.of(RewardType.DB, RewardType.COMMUNICATE), t.criteria().rewardBasis(), id);
            AgentSide agent = new AgentSide("gold", new GoldReplayAgent(t), airline.agentSystemPrompt(), env.agentTools(), true);
            EpisodeResult r = run(t, agent, ScriptedVerdictJudge.goldVerdict());
            communicateChecks += r.grade().communicate().size();
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), id);
            assertEquals(1.0, r.reward(), () -> id + " " + r.grade().checks());
            assertNull(r.grade().judge(), "NL assertions are outside airline's basis: no judge is asked (" + id + ")");
            assertTrue(r.grade().checks().values().stream().allMatch(b -> b), () -> id + " " + r.grade().checks());
            PyDict rec = gold.get(id);
            assertEquals(rec.get("initial_db_hash").asStr(), r.initialDbHash(), id);
            assertEquals(rec.get("final_db_hash").asStr(), r.finalDbHash(), id);
            assertEquals(rec.get("grader_gold_db_hash").asStr(), r.grade().db().goldDbHash(), id);
            assertNull(r.grade().db().goldUserDbHash());
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
        for (String id : airline.split("base")) {
            TaskSpec t = tasks.get(id);
            AgentSide stop = new AgentSide("stop", new StopAtOnceAgent(), airline.agentSystemPrompt(), env.agentTools(), true);
            EpisodeResult r = run(t, stop, ScriptedVerdictJudge.allUnmet());
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), id);
            PyDict rec = gold.get(id);
            boolean goldWrites = !rec.get("grader_gold_db_hash").equals(rec.get("initial_db_hash"));
            assertEquals(!goldWrites, r.grade().db().dbMatch(), id);
            boolean nothingToSay = t.criteria().communicateInfo() == null || t.criteria().communicateInfo().isEmpty();
            if (!goldWrites && nothingToSay) expected.add(id);
            if (r.reward() != 0.0) passed.add(id);
        }
        assertEquals(expected, passed);
        assertTrue(passed.size() < 50 && passed.size() > 0, passed.toString());
    }
}
