package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.cost.Budget;
import brokkr.eval.ModelRef;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.render.chart.Charts;
import brokkr.render.experiment.ScorecardTables;
import brokkr.render.report.ExperimentReport;
import brokkr.render.table.TableCsv;
import brokkr.value.PyDict;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Money from a loopback model reporting tokens, end to end through a store: three quiz candidates at $2/$8 per
 * million tokens (the experiment file's prices:), their exact dollars per episode in the scorecard's CSV and the
 * report, and the report's score-against-cost chart marking the Pareto front (big and small; pricey scores as
 * big for more and is not on it). Set -Dbrokkr.costReport=FILE to keep the report (to look at it in a browser).
 */
class ScoreCostReportTest {
    @TempDir
    Path tmp;

    /** big: 400 in / 30 out, always right; small: 40 / 3, wrong on q1; pricey: 1000 / 30, always right. */
    static ScriptedModelServer server() {
        return ScriptedModelServer.start(req -> {
            var d = req.chat();
            String task = d.history().getLast().content().split(" ")[1];
            boolean wrong = d.model().equals("quiz-small") && task.equals("q1");
            Usage u = switch (d.model()) {
                case "quiz-small" -> new Usage(40, 3);
                case "quiz-pricey" -> new Usage(1000, 30);
                default -> new Usage(400, 30);
            };
            Message.Assistant answer = new Message.Assistant(
                    null,
                    List.of(new ToolCall("c1", "answer", PyDict.of("value", wrong ? "nope" : QuizBench.secret(task)))),
                    u);
            return Reply.json(OpenAiChat.encodeResponse(answer, d.model(), "chatcmpl-" + req.index()));
        });
    }

    @Test
    void aLoopbackModelsTokensGiveExactDollarsInTheCsvAndTheReportsParetoChart() throws Exception {
        PyDict price = PyDict.of("input", 2, "output", 8);
        ExperimentSpec spec = ExperimentTest.spec(
                        "all",
                        1,
                        2,
                        0,
                        List.of(
                                new ExperimentSpec.CandidateSpec(
                                        "big", new ModelRef("openai", "quiz-big"), "tools", null),
                                new ExperimentSpec.CandidateSpec(
                                        "small", new ModelRef("openai", "quiz-small"), "tools", null),
                                new ExperimentSpec.CandidateSpec(
                                        "pricey", new ModelRef("openai", "quiz-pricey"), "tools", null)))
                .withCosts(new ExperimentSpec.CostSpec(
                        Budget.NONE,
                        PyDict.of("openai:quiz-big", price, "openai:quiz-small", price, "openai:quiz-pricey", price)));
        Path dir = tmp.resolve("cost");
        try (ScriptedModelServer s = server()) {
            var r = Experiments.run(spec, dir, ModelCacheTest.registry(ModelCacheTest.env(s)));
            assertEquals(9, r.completed(), r.summary());
        }
        // The store's own scorecard prices with the experiment file's prices (kept in its stored spec).
        Scorecard card = Experiments.scorecard(dir);
        String csv = TableCsv.csv(ScorecardTables.summary(card));
        List<String> lines = csv.lines().toList();
        List<String> head = List.of(lines.getFirst().split(","));
        int agent = head.indexOf("usd_agent/ep"), judge = head.indexOf("usd_judge/ep");
        // big: (400 * 2 + 30 * 8) / 1e6 = 0.00104; small 0.000104; pricey 0.00224; no judge or user model: empty.
        for (String[] want : List.of(
                new String[] {"big", "0.00104"}, new String[] {"small", "1.04E-4"}, new String[] {"pricey", "0.00224"
                })) {
            String[] row = lines.stream()
                    .filter(l -> l.contains("," + want[0] + ","))
                    .findFirst()
                    .orElseThrow()
                    .split(",");
            assertEquals(Double.parseDouble(want[1]), Double.parseDouble(row[agent]), 1e-15, want[0]);
            assertEquals("", row[judge], want[0] + ": no judge model, no cost: empty, never 0");
        }
        assertEquals(
                List.of("small", "big"),
                Charts.paretoFront(card.rows()).stream()
                        .map(Scorecard.CandidateScore::candidate)
                        .toList());

        StringWriter html = new StringWriter();
        ExperimentReport.write(dir, ModelCacheTest.registry(java.util.Map.of()), html);
        String page = html.toString();
        assertTrue(page.contains("<section id=\"cost\"><h2>Score against cost</h2>"), "the chart's section");
        assertTrue(page.contains("score against cost (3 candidates, * on the Pareto front)"), "its title as text");
        assertTrue(page.contains(">usd_agent/ep</th>"), "the scorecard's dollars column");
        // The chart's words are outlines in the SVG; the caption says the front in text (pricey is dominated).
        assertTrue(
                page.contains("On the front, cheapest first: <span class=\"front\">small, big</span>."),
                "the front in words");
        String keep = System.getProperty("brokkr.costReport");
        if (keep != null) Files.writeString(Path.of(keep), page);
    }
}
