package brokkr.domains.tau2.retail;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.ToolCall;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.evaluator.ActionEvaluator;
import brokkr.domains.tau2.evaluator.Checks.ActionCheck;
import brokkr.domains.tau2.evaluator.EnvEvaluator;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Domains;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Retail's action and DB verdicts on the gold trajectories, against upstream's evaluator (every domain's gold and stop episodes: Tau2DomainsEpisodesTest). */
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

    @Test
    void actionAndDbVerdictsOnTheGoldTrajectoriesAgreeWithUpstreamsEvaluator() {
        EpisodeEnvironment<Worlds> env = domain.environment();
        for (PyDict rec : gold.values()) {
            TaskSpec t = domain.task(rec.get("task_id").asStr());
            PyDict ev = rec.get("evaluator").asDict();
            // The gold trajectory as upstream's gold.py builds it: each call in its own message, then the recorded
            // result.
            List<Tau2Message> traj = new ArrayList<>();
            for (Value v : rec.get("actions").asList()) {
                PyDict a = v.asDict();
                ToolCall tc = new ToolCall(
                        a.get("action_id").asStr(),
                        a.get("name").asStr(),
                        a.get("arguments").asDict());
                Requestor req = Requestor.parse(a.get("requestor").asStr());
                traj.add(
                        req == Requestor.USER
                                ? new Tau2Message.User(null, List.of(tc), null)
                                : new Tau2Message.Agent(null, List.of(tc), null));
                traj.add(new Tau2Message.ToolResult(
                        tc.id(),
                        tc.name(),
                        a.get("content").asStr(),
                        req,
                        ((brokkr.value.PyBool) a.get("error")).value()));
            }
            List<ActionCheck> checks = ActionEvaluator.check(traj, t.criteria().actionsOrEmpty());
            double actionReward = checks.stream().allMatch(ActionCheck::actionMatch) ? 1.0 : 0.0;
            assertEquals(((brokkr.value.PyFloat) ev.get("action_reward")).value(), actionReward, t.id());
            // DB: replay the recorded calls the orchestrator's way (get_response) and compare with the grader's gold
            // env.
            Worlds w = env.initialWorld(t);
            for (Value v : rec.get("actions").asList()) {
                PyDict a = v.asDict();
                w = env.sync(env.respond(
                                w,
                                Requestor.parse(a.get("requestor").asStr()),
                                a.get("name").asStr(),
                                a.get("arguments").asDict())
                        .world());
            }
            var evidence = EnvEvaluator.evidence(env, t, w);
            boolean dbMatch = evidence.goldDbHash().equals(evidence.predictedDbHash());
            assertEquals(((brokkr.value.PyBool) ev.get("db_match")).value(), dbMatch, t.id());
            assertEquals(
                    rec.get("grader_gold_action_errors").asList().size(),
                    evidence.goldActionErrors().size(),
                    t.id());
            // A trajectory missing its last gold write loses the action check, as upstream's evaluator would.
            List<GoldAction> actions = t.criteria().actionsOrEmpty();
            if (!actions.isEmpty()) {
                List<Tau2Message> dropped = traj.subList(0, traj.size() - 2);
                GoldAction last = actions.get(actions.size() - 1);
                boolean stillThere = ActionEvaluator.predictedToolCalls(dropped).stream()
                        .anyMatch(c -> ActionEvaluator.matches(last, c));
                assertEquals(
                        stillThere,
                        ActionEvaluator.check(dropped, actions).stream().allMatch(ActionCheck::actionMatch),
                        t.id());
            }
        }
        assertEquals(114, gold.size());
    }
}
