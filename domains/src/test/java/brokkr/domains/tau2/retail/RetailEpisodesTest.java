package brokkr.domains.tau2.retail;

import brokkr.domains.tau2.evaluator.EnvEvaluator;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Cell;

import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.ToolCall;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.domains.tau2.evaluator.ActionEvaluator;
import brokkr.domains.tau2.evaluator.Checks.ActionCheck;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The episode protocol and grader on the retail domain, checked against upstream's recorded gold evaluations. */
class RetailEpisodesTest {
    static Tau2Domain domain;
    static Map<String, PyDict> gold; // gold.jsonl by task id

    @BeforeAll
    static void load() throws IOException {
        domain = Tau2Domains.load("retail");
        gold = new LinkedHashMap<>();
        for (String line : Files.readAllLines(conformance("gold.jsonl"))) {
            PyDict r = Json.parse(line).asDict();
            gold.put(r.get("task_id").asStr(), r);
        }
    }

    static Path conformance(String file) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/tau2/retail");
            if (Files.isDirectory(s)) return s.resolve(file);
        }
        throw new IllegalStateException("no shared/conformance above the working directory");
    }

    /** A cell of the registered benchmark with a scripted candidate opposite the scripted user, the production way. */
    static Tau2Cell run(TaskSpec task, String candidate) {
        return Tau2Cell.scriptedRun(Tau2Domains.benchmark("retail"), task.id(), candidate);
    }

    @Test
    void everyTaskScoresOneWithTheGoldAgentAndTheToolResultsAreUpstreams() {
        assertEquals(114, domain.split("base").size());
        int passed = 0, communicateChecks = 0, judged = 0;
        // the judge the gold replay's cells name (the default, known-verdict)
        assertEquals("scripted-gold-verdict", Tau2Benchmark.judgeName(Tau2Benchmark.DEFAULT_JUDGE,
                brokkr.eval.AgentDef.of(Tau2Cell.scripted(Tau2Benchmark.GOLD), "tools", null)));
        for (TaskSpec t : domain.split("base")) {
            Tau2Cell r = run(t, Tau2Benchmark.GOLD);
            communicateChecks += r.communicate().size();
            if (r.judge() != null) {
                judged++;
                assertEquals("scripted-gold-verdict", r.judge());
            }
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), t.id());
            assertEquals(1.0, r.reward(), () -> t.id() + " " + r.checks());
            // Every check passes, including the COMMUNICATE ones outside retail's basis (no retail info string has a comma).
            assertTrue(r.checks().values().stream().allMatch(b -> b), () -> t.id() + " " + r.checks());
            PyDict rec = gold.get(t.id());
            assertEquals(rec.get("initial_db_hash").asStr(), r.initialDbHash(), t.id());
            assertEquals(rec.get("final_db_hash").asStr(), r.finalDbHash(), t.id());
            assertEquals(rec.get("grader_gold_db_hash").asStr(), r.db().get("gold_db_hash").asStr(), t.id());
            assertTrue(r.db().get("gold_user_db_hash").isNone());
            // Every tool result of the episode is the content and error flag upstream recorded for that gold call.
            List<Tau2Message.ToolResult> results = r.transcript().stream()
                    .filter(m -> m instanceof Tau2Message.ToolResult).map(m -> (Tau2Message.ToolResult) m).toList();
            List<Value> recorded = rec.get("actions").asList().items();
            assertEquals(recorded.size(), results.size(), t.id());
            for (int i = 0; i < results.size(); i++) {
                PyDict a = recorded.get(i).asDict();
                assertEquals(a.get("content").asStr(), results.get(i).content(), t.id() + " call " + i);
                assertEquals(((brokkr.value.PyBool) a.get("error")).value(), results.get(i).error(), t.id() + " call " + i);
            }
            passed++;
        }
        assertEquals(114, passed);
        assertEquals(61, communicateChecks);
        assertEquals(40, judged, "the judge is asked only for the tasks with NL assertions");
    }

    /** Tasks whose gold actions leave the DB unchanged and that have no NL assertions: upstream passes an agent that does nothing. */
    static final Set<String> NOTHING_TO_DO = Set.of("10", "12", "25", "50", "57", "65");

    @Test
    void theStopAtOnceAgentFailsEveryTaskThatNeedsAWriteOrAJudgedStatement() {
        Set<String> dbUnchanged = new TreeSet<>();
        Set<String> passed = new TreeSet<>();
        for (TaskSpec t : domain.split("base")) {
            assertTrue(t.criteria().basisIncludes(brokkr.domains.tau2.model.RewardType.DB));
            Tau2Cell r = run(t, Tau2Benchmark.STOP);
            assertEquals(TerminationReason.AGENT_STOP, r.termination(), t.id());
            assertEquals(3, r.transcript().size());
            boolean goldWrites = !gold.get(t.id()).get("grader_gold_db_hash").equals(gold.get(t.id()).get("initial_db_hash"));
            assertEquals(!goldWrites, r.dbMatch(), t.id());
            if (!goldWrites) dbUnchanged.add(t.id());
            if (r.reward() != 0.0) passed.add(t.id());
        }
        assertEquals(new TreeSet<>(Set.of("10", "12", "24", "25", "50", "57", "62", "65", "67", "68", "105")), dbUnchanged);
        assertEquals(new TreeSet<>(NOTHING_TO_DO), passed);
    }

    @Test
    void actionAndDbVerdictsOnTheGoldTrajectoriesAgreeWithUpstreamsEvaluator() {
        EpisodeEnvironment<Worlds> env = domain.environment();
        for (PyDict rec : gold.values()) {
            TaskSpec t = domain.task(rec.get("task_id").asStr());
            PyDict ev = rec.get("evaluator").asDict();
            // The gold trajectory as upstream's gold.py builds it: each call in its own message, then the recorded result.
            List<Tau2Message> traj = new ArrayList<>();
            for (Value v : rec.get("actions").asList()) {
                PyDict a = v.asDict();
                ToolCall tc = new ToolCall(a.get("action_id").asStr(), a.get("name").asStr(), a.get("arguments").asDict());
                Requestor req = Requestor.parse(a.get("requestor").asStr());
                traj.add(req == Requestor.USER ? new Tau2Message.User(null, List.of(tc), null) : new Tau2Message.Agent(null, List.of(tc), null));
                traj.add(new Tau2Message.ToolResult(tc.id(), tc.name(), a.get("content").asStr(), req, ((brokkr.value.PyBool) a.get("error")).value()));
            }
            List<ActionCheck> checks = ActionEvaluator.check(traj, t.criteria().actionsOrEmpty());
            double actionReward = checks.stream().allMatch(ActionCheck::actionMatch) ? 1.0 : 0.0;
            assertEquals(((brokkr.value.PyFloat) ev.get("action_reward")).value(), actionReward, t.id());
            // DB: replay the recorded calls the orchestrator's way (get_response) and compare with the grader's gold env.
            Worlds w = env.initialWorld(t);
            for (Value v : rec.get("actions").asList()) {
                PyDict a = v.asDict();
                w = env.sync(env.respond(w, Requestor.parse(a.get("requestor").asStr()), a.get("name").asStr(), a.get("arguments").asDict()).world());
            }
            var evidence = EnvEvaluator.evidence(env, t, w);
            boolean dbMatch = evidence.goldDbHash().equals(evidence.predictedDbHash());
            assertEquals(((brokkr.value.PyBool) ev.get("db_match")).value(), dbMatch, t.id());
            assertEquals(rec.get("grader_gold_action_errors").asList().size(), evidence.goldActionErrors().size(), t.id());
            // A trajectory missing its last gold write loses the action check, as upstream's evaluator would.
            List<GoldAction> actions = t.criteria().actionsOrEmpty();
            if (!actions.isEmpty()) {
                List<Tau2Message> dropped = traj.subList(0, traj.size() - 2);
                GoldAction last = actions.get(actions.size() - 1);
                boolean stillThere = ActionEvaluator.predictedToolCalls(dropped).stream().anyMatch(c -> ActionEvaluator.matches(last, c));
                assertEquals(stillThere, ActionEvaluator.check(dropped, actions).stream().allMatch(ActionCheck::actionMatch), t.id());
            }
        }
        assertEquals(114, gold.size());
    }
}
