package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.PyList;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code budget.per_cell} on bfcl-multi-turn (multi_turn_base_0 played by its ground truth over a loopback model
 * server, every answer reporting 100 + 10 tokens; two model steps a turn, the calls then "Done."): without a budget
 * the task passes; with 250 tokens the third call (turn 1's calls) reaches it, those calls are not executed, no later
 * turn is played, the termination is cell_budget, the within_cell_budget check fails and the task scores 0.
 */
class MultiTurnCellBudgetTest {
    @TempDir
    Path tmp;

    @Test
    void theStepWhoseCallReachesTheCellBudgetEndsTheTask() throws Exception {
        Registry base = Registry.load();
        MultiTurnBenchmark b = (MultiTurnBenchmark) base.benchmarks().get("bfcl-multi-turn");
        MultiTurnData.Task task = b.task("multi_turn_base_0");
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            Turn t = new MultiTurnInference.GoldCandidate(task).next(d.history(), d.tools());
            Message.Assistant m =
                    new Message.Assistant(t.message().content(), t.message().toolCalls(), new Usage(100, 10));
            return Reply.json(OpenAiChat.encodeResponse(m, d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry registry = base.with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            String[][] cases = {{"", "completed"}, {"budget: {per_cell: {max_tokens: 250}}", "cell_budget"}};
            for (int i = 0; i < cases.length; i++) {
                Path file = tmp.resolve("e" + i + ".yaml");
                Files.writeString(file, """
                        name: mt-cell-budget
                        domain: bfcl-multi-turn
                        tasks: ["multi_turn_base_0"]
                        candidates: [{id: gold, provider: openai, model: gold-agent}]
                        progress: false
                        """ + cases[i][0] + "\n");
                Path dir = tmp.resolve("e" + i);
                var r = Experiments.run(ExperimentSpec.read(file), dir, registry);
                assertEquals(1, r.completed(), r.summary());
                try (ExperimentQuery store = ExperimentQuery.open(dir)) {
                    Attempt a = store.attempts(true).getFirst();
                    Evidence e = a.evidence();
                    assertEquals(cases[i][1], e.termination());
                    if (i == 0) {
                        assertEquals(1.0, a.reward(), e.details().toString());
                        assertTrue(a.checks().stream().noneMatch(c -> c.name().equals("within_cell_budget")));
                        continue;
                    }
                    assertEquals(0.0, a.reward());
                    assertEquals(
                            3,
                            e.modelCalls().stream()
                                    .filter(c -> c.role().equals(Evidence.AGENT))
                                    .count(),
                            "the third call reached the budget");
                    assertEquals(new Usage(300, 30), e.agentUsage());
                    assertEquals(
                            "330 of 250 tokens",
                            e.details().get("stopped_by_cell_budget").asStr());
                    assertTrue(a.checks().stream().anyMatch(c -> c.name().equals("within_cell_budget") && !c.passed()));
                    // Turn 0 played (its calls, then its answer); turn 1's calls were not executed; no later turn.
                    PyList turns = (PyList) e.output().get("turns");
                    assertEquals(2, turns.size(), turns.toString());
                    assertEquals(2, turns.get(0).asList().size());
                    assertEquals(0, turns.get(1).asList().size(), "the step that reached the budget is not recorded");
                }
            }
        }
    }
}
