package brokkr.domains.tau2.retail;

import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.ToolCall;
import brokkr.domains.tau2.orchestrator.AgentSide;
import brokkr.domains.tau2.orchestrator.Episode;
import brokkr.domains.tau2.orchestrator.EpisodeOptions;
import brokkr.domains.tau2.orchestrator.EpisodeResult;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.domains.tau2.agent.StopAtOnceAgent;
import brokkr.domains.tau2.orchestrator.UserSide;
import brokkr.domains.tau2.evaluator.Checks;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
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
            AgentSide agent = new AgentSide("gold", new GoldReplayAgent(t), domain.agentSystemPrompt(), domain.environment().agentTools(), true);
            UserSide user = new UserSide("scripted-user", new ScriptedUser(t), domain.userSystemPrompt().apply(t), List.of());
            EpisodeResult r = Episode.run(domain.environment(), t, agent, user, ScriptedVerdictJudge.goldVerdict(), EpisodeOptions.DEFAULT);
            String id = t.id();
            assertEquals(up.get("termination_reason").asStr(), r.termination().value(), id);
            assertEquals(((PyInt) up.get("steps")).longValue(), r.steps(), id);
            assertEquals(((PyInt) up.get("errors")).longValue(), r.toolErrors(), id);
            List<Value> mine = new ArrayList<>();
            for (Tau2Message m : r.transcript()) mine.add(json(m));
            assertEquals(up.get("messages").asList().items(), mine, id);
            assertEquals(((PyBool) up.get("db_match")).value(), r.grade().db().dbMatch(), id);
            assertEquals(bools(up.get("action_checks")), r.grade().actions().stream().map(Checks.ActionCheck::actionMatch).toList(), id);
            assertEquals(bools(up.get("communicate_checks")), r.grade().communicate().stream().map(Checks.CommunicateCheck::met).toList(), id);

            // An agent that stops at once: upstream's DB verdict (the 11 tasks whose gold actions write nothing match).
            PyDict stopUp = up.get("stop_agent").asDict();
            AgentSide stop = new AgentSide("stop", new StopAtOnceAgent(), domain.agentSystemPrompt(), domain.environment().agentTools(), true);
            EpisodeResult s = Episode.run(domain.environment(), t, stop, user, ScriptedVerdictJudge.allUnmet(), EpisodeOptions.DEFAULT);
            assertEquals(stopUp.get("termination_reason").asStr(), s.termination().value(), id);
            assertEquals(((PyBool) stopUp.get("db_match")).value(), s.grade().db().dbMatch(), id);
        }
    }

    static List<Boolean> bools(Value v) { return v.asList().stream().map(b -> ((PyBool) b).value()).toList(); }

    /** A message in the oracle's shape ({@code message_json} of the oracle script). */
    static PyDict json(Tau2Message m) {
        return switch (m) {
            case Tau2Message.ToolResult t -> PyDict.of("role", "tool", "id", t.id(), "content", t.content(),
                    "requestor", t.requestor().wire(), "error", t.error());
            case Tau2Message.Participant p -> {
                Value calls = PyNone.NONE;
                if (p.isToolCall()) {
                    List<Value> cs = new ArrayList<>();
                    String requestor = p instanceof Tau2Message.Agent ? "assistant" : "user";
                    for (ToolCall c : p.toolCalls()) cs.add(PyDict.of("id", c.id(), "name", c.name(), "arguments", c.arguments(), "requestor", requestor));
                    calls = PyList.of(cs);
                }
                yield PyDict.of("role", p.role(), "content", p.content() == null ? PyNone.NONE : new PyStr(p.content()), "tool_calls", calls);
            }
        };
    }
}
