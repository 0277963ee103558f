package brokkr.domains.tau2.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.cost.PriceTable;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code budget.per_cell} on tau2 retail task 5 (the gold agent over a loopback model server, every agent answer
 * reporting 100 + 10 tokens, every customer answer 1000 + 100): the episode ends at the agent's message whose
 * tokens (or dollars at the experiment's prices) reach the cell's limit, with termination {@code cell_budget},
 * graded as upstream grades a stopped episode (reward 0), and the customer's tokens count nothing against it.
 */
class Tau2CellBudgetTest {
    @TempDir
    Path tmp;

    static final Usage AGENT = new Usage(100, 10), CUSTOMER = new Usage(1000, 100);

    @Test
    void maxTokensAndMaxCostStopTheCellAtTheAgentStepThatCrossesThem() throws Exception {
        Tau2Domain retail = Tau2Domains.load("retail");
        TaskSpec task = retail.task("5");
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> {
            DecodedRequest d = req.chat();
            boolean agent = d.model().equals("gold-agent");
            Turn t = agent
                    ? new GoldReplayAgent(task).next(d.history(), d.tools())
                    : new ScriptedUser(task).next(d.history(), d.tools());
            Usage u = agent ? AGENT : CUSTOMER;
            Message.Assistant m =
                    new Message.Assistant(t.message().content(), t.message().toolCalls(), u);
            return Reply.json(OpenAiChat.encodeResponse(m, d.model(), "chatcmpl-" + req.index()));
        })) {
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            // 110 tokens a step: 250 tokens are reached at the third agent message, and so are $0.30 at $1000 per
            // million tokens ($0.11 a step). Without a per-cell budget the gold agent finishes (user_stop, 1.0).
            String[][] cases = {
                {"", "user_stop", null},
                {"max_tokens: 250", "cell_budget", "330 of 250 tokens"},
                {"max_cost_usd: 0.3", "cell_budget", "$0.3300 of $0.3000"}
            };
            for (int i = 0; i < cases.length; i++) {
                Path file = tmp.resolve("e" + i + ".yaml");
                Files.writeString(
                        file, """
                        name: cell-budget
                        domains: [{name: tau2-retail, tasks: ["5"]}]
                        candidates: [{id: gold, provider: openai, model: gold-agent}]
                        user: {provider: openai, model: customer}
                        prices: {"openai:gold-agent": {input: 1000, output: 1000}, "openai:customer": {input: 1000, output: 1000}}
                        progress: false
                        """ + (cases[i][0].isEmpty() ? "" : "budget: {per_cell: {" + cases[i][0] + "}}\n"));
                Path dir = tmp.resolve("e" + i);
                var r = Experiments.run(ExperimentSpec.read(file), dir, registry);
                assertEquals(1, r.completed(), r.summary());
                try (ExperimentQuery store = ExperimentQuery.open(dir)) {
                    Attempt a = store.attempts(true).getFirst();
                    Evidence e = a.evidence();
                    assertEquals(cases[i][1], e.termination(), cases[i][0]);
                    // Exported as upstream's Results: each simulation's agent_cost/user_cost its tokens at the
                    // experiment's prices ($1000 per million tokens), and cell_budget as upstream's max_steps.
                    var cells = brokkr.family.StoredResults.read(dir);
                    var export = Tau2ResultsExport.export(
                                    cells,
                                    registry,
                                    brokkr.family.StoredResults.prices(brokkr.experiment.StoreLocation.of(dir)))
                            .getFirst();
                    PyDict sim =
                            export.results().get("simulations").asList().get(0).asDict();
                    Usage agentTokens = e.usage().get(Evidence.AGENT),
                            userTokens = e.usage().get("user");
                    assertEquals(
                            (agentTokens.inputTokens() + agentTokens.outputTokens()) * 1000 / 1e6,
                            ((PyFloat) sim.get("agent_cost")).value(),
                            1e-12);
                    assertEquals(
                            (userTokens.inputTokens() + userTokens.outputTokens()) * 1000 / 1e6,
                            ((PyFloat) sim.get("user_cost")).value(),
                            1e-12);
                    if (cases[i][2] == null) {
                        assertEquals(1.0, a.reward());
                        assertEquals(List.of(), brokkr.experiment.BenchmarkReports.of(store, registry));
                        assertEquals("user_stop", sim.get("termination_reason").asStr());
                        assertEquals(List.of(), export.warnings());
                        continue;
                    }
                    assertEquals(0.33, ((PyFloat) sim.get("agent_cost")).value(), 1e-12, "3 agent calls of 110 tokens");
                    // Every Eval Ever has no cost field: the priced cost per episode goes into the score's details.
                    var records = new brokkr.family.EveryEvalEver()
                            .export(
                                    cells,
                                    new brokkr.family.ResultFormat.ExportContext(
                                            registry,
                                            brokkr.family.StoredResults.prices(brokkr.experiment.StoreLocation.of(dir)),
                                            java.util.Map.of()));
                    PyDict log = brokkr.value.Json.parse(
                                    records.files().getFirst().content())
                            .asDict();
                    PyDict details = log.get("evaluation_results")
                            .asList()
                            .get(0)
                            .asDict()
                            .get("score_details")
                            .asDict()
                            .get("details")
                            .asDict();
                    assertEquals(
                            0.33,
                            Double.parseDouble(
                                    details.get("usd_agent_per_episode").asStr()),
                            1e-12);
                    assertTrue(details.containsKey("usd_user_per_episode"), details.toString());
                    // Upstream's TerminationReason has no cell_budget (its Results would not load): max_steps,
                    // upstream's
                    // runner-imposed limit, graded alike (a premature stop, reward 0); the simulation's info names it.
                    assertEquals("max_steps", sim.get("termination_reason").asStr());
                    assertEquals(
                            "cell_budget",
                            sim.get("info")
                                    .asDict()
                                    .get("brokkr_termination_reason")
                                    .asStr());
                    PyDict rewardInfo = sim.get("reward_info").asDict();
                    assertEquals(0.0, ((PyFloat) rewardInfo.get("reward")).value());
                    assertEquals(
                            "Simulation terminated prematurely. Termination reason: max_steps",
                            rewardInfo.get("info").asDict().get("note").asStr());
                    assertTrue(
                            export.warnings().getFirst().contains("written as max_steps"),
                            export.warnings().toString());
                    // A leaderboard submission refuses it (besides its one task and one trial).
                    var refused = org.junit.jupiter.api.Assertions.assertThrows(
                            IllegalArgumentException.class,
                            () -> Tau2Submission.build(
                                    cells,
                                    registry,
                                    PriceTable.standard(),
                                    new Tau2Submission.Metadata(
                                            null,
                                            null,
                                            "Lab",
                                            null,
                                            "a@example.org",
                                            null,
                                            null,
                                            java.time.LocalDate.EPOCH)));
                    assertTrue(
                            refused.getMessage()
                                    .contains("1 episodes were stopped at the experiment's budget.per_cell"),
                            refused.getMessage());
                    assertEquals(0.0, a.reward(), "upstream's evaluate_simulation scores a premature stop 0");
                    assertEquals(
                            3,
                            e.modelCalls().stream()
                                    .filter(c -> c.role().equals(Evidence.AGENT))
                                    .count());
                    assertEquals(new Usage(300, 30), e.usage().get(Evidence.AGENT));
                    String view = Inspect.transcript(store, a.id());
                    assertTrue(view.contains("termination: cell_budget"), view);
                    assertTrue(view.contains("stopped by the cell budget: " + cases[i][2]), view);
                    assertTrue(view.contains("Termination reason: cell_budget"), view);
                    // experiment show's summary: tau2's report of terminations, only when the budget stopped one.
                    var reports = brokkr.experiment.BenchmarkReports.of(store, registry);
                    assertEquals(1, reports.size());
                    assertEquals(
                            List.of(List.of(1, 1)), reports.getFirst().report().rows());
                    assertTrue(a.checks().stream().anyMatch(c -> c.name().equals("within_cell_budget") && !c.passed()));
                }
            }
        }
    }
}
