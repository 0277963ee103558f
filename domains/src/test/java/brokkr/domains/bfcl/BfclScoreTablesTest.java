package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Usage;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.family.StoredResults;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BFCL's score tables from the records: data_overall.csv's Total Cost ($) from the candidate's tokens at the pinned
 * price table, and upstream's overall (its five segments at 10/10/10/30/40) only over segments that were run.
 */
class BfclScoreTablesTest {
    @TempDir
    Path tmp;

    /**
     * gpt-4o over loopback answering every task in text with 1M prompt tokens (500k of them cached) and 100k
     * completion tokens: at LiteLLM's $2.50 / $1.25 cached / $10 per million an entry costs 1.25 + 0.625 + 1 =
     * $2.875, four entries $11.50 (upstream's round(cost, 2)); latency is the model calls' time. Before: "N/A".
     */
    @Test
    void totalCostIsTheCandidatesTokensAtThePriceTable() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(req -> Reply.json(OpenAiChat.encodeResponse(
                new Message.Assistant("I cannot help with that.", List.of(), new Usage(1_000_000, 100_000, 500_000, 0)),
                req.chat().model(),
                "chatcmpl-" + req.index())))) {
            Path file = tmp.resolve("bfcl.yaml");
            Files.writeString(file, """
                    name: bfcl-cost
                    domain: bfcl
                    split: simple_python,irrelevance:sample=2
                    candidates: [{id: gpt, provider: openai, model: gpt-4o}]
                    progress: false
                    """);
            Registry registry =
                    Registry.load().with(List.of(), List.of(new ProviderModels("openai", server.openAiEnv()) {}));
            var r = Experiments.run(ExperimentSpec.read(file), tmp.resolve("x"), registry);
            assertEquals(4, r.completed(), r.summary());
            var export = BfclResultsExport.export(StoredResults.read(tmp.resolve("x")), registry);
            List<String> lines =
                    export.files().get("score/data_overall.csv").lines().toList();
            List<String> head = List.of(lines.get(0).split(",")),
                    row = List.of(lines.get(1).split(","));
            assertEquals("11.5", row.get(head.indexOf("Total Cost ($)")), lines.get(1));
            assertTrue(
                    row.get(head.indexOf("Latency Mean (s)")).matches("\\d+\\.\\d+"),
                    "the model calls were timed: " + lines.get(1));
            assertEquals("N/A", row.get(head.indexOf("Overall Acc")));
        }
    }

    /**
     * Upstream's formula (generate_leaderboard_csv) on the same per-category numbers, written out: every category
     * run gives upstream's overall; without multi-turn and agentic it is missing and the overall of the segments run
     * says what it covers.
     */
    @Test
    void theOverallIsUpstreamsFormulaAndMissingUnlessEverySegmentRan() {
        Map<String, BfclOverall.Category> c = new LinkedHashMap<>();
        double[] acc = {
            0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.85, 0.75, 0.65, 0.55, 0.95, 0.45, 0.35, 0.25, 0.15, 0.3, 0.2, 0.1, 0.05,
            0.99
        };
        List<String> ids = List.of(
                "simple_python",
                "simple_java",
                "simple_javascript",
                "multiple",
                "parallel",
                "parallel_multiple",
                "live_simple",
                "live_multiple",
                "live_parallel",
                "live_parallel_multiple",
                "irrelevance",
                "live_irrelevance",
                "multi_turn_base",
                "multi_turn_miss_func",
                "multi_turn_miss_param",
                "multi_turn_long_context",
                "web_search_base",
                "web_search_no_snippet",
                "memory_kv",
                "memory_vector");
        int[] counts = {400, 100, 50, 200, 200, 200, 258, 1053, 16, 24, 240, 884, 200, 200, 200, 200, 100, 100, 155, 155
        };
        for (int i = 0; i < ids.size(); i++) c.put(ids.get(i), new BfclOverall.Category(acc[i], counts[i]));
        c.put("memory_rec_sum", new BfclOverall.Category(0.6, 155));
        double simple = (0.9 + 0.8 + 0.7) / 3;
        double nonLive = (simple + 0.6 + 0.5 + 0.4) / 4;
        double live = (0.85 * 258 + 0.75 * 1053 + 0.65 * 16 + 0.55 * 24) / (258 + 1053 + 16 + 24);
        double irrelevance = (0.95 + 0.45) / 2;
        double multiTurn = (0.35 + 0.25 + 0.15 + 0.3) / 4;
        double agentic = ((0.2 + 0.1) / 2 + (0.05 + 0.99 + 0.6) / 3) / 2;
        double upstream = 0.1 * nonLive + 0.1 * live + 0.1 * irrelevance + 0.3 * multiTurn + 0.4 * agentic;
        BfclOverall all = BfclOverall.of(c);
        assertEquals(upstream, all.upstream(), 1e-12);
        assertEquals(upstream, all.ofSegmentsRun(), 1e-12);
        assertEquals("non-live, live, irrelevance, multi-turn, agentic: 100% of upstream's weight", all.covers());

        for (String id : BfclOverall.MULTI_TURN) c.remove(id);
        c.remove("memory_kv");
        BfclOverall part = BfclOverall.of(c);
        assertNull(part.upstream(), "not upstream's overall without multi-turn and agentic");
        assertEquals(List.of("multi-turn", "agentic"), part.notRun());
        // web search ran whole (memory did not): it is the half of agentic the overall of the segments run weighs
        double web = (0.2 + 0.1) / 2;
        assertEquals((10 * nonLive + 10 * live + 10 * irrelevance + 20 * web) / 50, part.ofSegmentsRun(), 1e-12);
        assertEquals(
                "non-live, live, irrelevance, web search (half of agentic): 50% of upstream's weight", part.covers());
        for (String id : BfclOverall.WEB_SEARCH) c.remove(id);
        assertEquals((nonLive + live + irrelevance) / 3, BfclOverall.of(c).ofSegmentsRun(), 1e-12);
        assertEquals(
                "non-live, live, irrelevance: 30% of upstream's weight",
                BfclOverall.of(c).covers());
    }
}
