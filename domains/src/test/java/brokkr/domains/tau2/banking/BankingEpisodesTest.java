package brokkr.domains.tau2.banking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.model.Requestor;
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
    static BankingDomain banking;
    static EpisodeEnvironment<Worlds> env;
    static Map<String, TaskSpec> tasks;
    static Map<String, PyDict> gold;

    @BeforeAll
    static void load() throws IOException {
        banking = new BankingDomain(new Tau2Data(SharedDirs.tau2Data()));
        env = banking.episodeEnvironment();
        tasks = banking.taskSpecs();
        gold = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SharedDirs.conformance("banking_knowledge", "gold.jsonl"))) {
            PyDict r = Json.parse(line).asDict();
            gold.put(r.get("task_id").asStr(), r);
        }
    }

    static EpisodeResult run(TaskSpec task, AgentSide agent, ScriptedVerdictJudge judge) {
        UserSide user = new UserSide("scripted-user", new ScriptedUser(task), banking.userSystemPrompt(task.raw()), env.userTools(task));
        return Episode.run(env, task, agent, user, judge, EpisodeOptions.DEFAULT);
    }

    @Test
    void everyTaskScoresOneWithTheGoldAgentAndUser() {
        List<String> base = banking.split("base");
        assertEquals(97, base.size());
        int passed = 0, withAction = 0, userCalls = 0;
        for (String id : base) {
            TaskSpec t = tasks.get(id);
            AgentSide agent = new AgentSide("gold", new GoldReplayAgent(t), banking.agentSystemPrompt(), env.agentTools(), true);
            EpisodeResult r = run(t, agent, ScriptedVerdictJudge.goldVerdict());
            PyDict rec = gold.get(id);
            PyDict ev = rec.get("evaluator").asDict();
            // the gold agent stops, or (task_034) its closing transfer ends the episode on the user's side
            assertTrue(r.termination() == TerminationReason.AGENT_STOP || r.termination() == TerminationReason.USER_STOP, id + " " + r.termination());
            assertEquals(1.0, r.reward(), () -> id + " " + r.grade().checks());
            assertEquals(((PyFloat) ev.get("reward")).value(), r.reward(), id);
            if (t.criteria().basisIncludes(RewardType.ACTION)) {
                withAction++;
                assertEquals(1.0, r.grade().breakdown().get(RewardType.ACTION), id);
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
            assertEquals(r.grade().db().predictedDbHash(), r.grade().db().predictedUserDbHash(), id);
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
        for (String id : banking.split("base")) {
            TaskSpec t = tasks.get(id);
            AgentSide stop = new AgentSide("stop", new StopAtOnceAgent(), banking.agentSystemPrompt(), env.agentTools(), true);
            EpisodeResult r = run(t, stop, ScriptedVerdictJudge.allUnmet());
            assertTrue(r.termination() == TerminationReason.AGENT_STOP || r.termination() == TerminationReason.USER_STOP, id + " " + r.termination());
            if (r.reward() == 0.0) zero++;
        }
        assertTrue(zero > 80, "the stop agent fails almost every task (" + zero + "/97)");
    }
}
