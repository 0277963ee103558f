package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.domains.tau2.user.ScriptedUser;
import brokkr.eval.Evidence;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.experiment.Scorecard;
import brokkr.experiment.StoreLocation;
import brokkr.experiment.testing.PostgresServer;
import brokkr.provider.AnthropicMessages;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.render.experiment.ScorecardTables;
import brokkr.render.report.ExperimentReport;
import brokkr.render.table.TableCsv;
import brokkr.value.PyDict;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompt-cache tokens read from the wires, recorded with the attempt and billed at the cache's prices, once: tau2
 * retail task 5 with the gold agent on the Anthropic wire (every answer 100 uncached input tokens, 1000 read from
 * the cache, 200 written to it, 10 output) and the scripted customer on the OpenAI wire (1000 prompt tokens of
 * which 800 cached, 50 completion), through one loopback server, into SQLite and into PostgreSQL. The scorecard,
 * its CSV ({@code experiment show --format csv}) and the report give each role's exact dollars per episode.
 */
class CacheTokenCostTest {
    @TempDir
    Path tmp;

    static final Usage AGENT = new Usage(1300, 10, 1000, 200), CUSTOMER = new Usage(1000, 50, 800, 0);
    // $3 in, $15 out, $0.30 cache read, $3.75 cache write per million: 100*3 + 1000*0.3 + 200*3.75 + 10*15 = 1500e-6.
    static final double AGENT_CALL_USD = 1500e-6;
    // $2 in, $8 out, $0.50 cache read: 200*2 + 800*0.5 + 50*8 = 1200e-6 (OpenAI reports no cache writes).
    static final double CUSTOMER_CALL_USD = 1200e-6;

    static final String SPEC = """
            name: cache-cost
            domains: [{name: tau2-retail, tasks: ["5"]}]
            candidates: [{id: gold, provider: anthropic, model: cache-agent}]
            user: {provider: openai, model: cache-customer}
            prices:
              "anthropic:cache-agent": {input: 3, output: 15, cache_read: 0.3, cache_write: 3.75}
              "openai:cache-customer": {input: 2, output: 8, cache_read: 0.5}
            progress: false
            """;

    @Test
    void cacheReadsAndWritesAreRecordedAndBilledAtTheCachePricesInBothStores() throws Exception {
        TaskSpec task = Tau2Domains.load("retail").task("5");
        AtomicInteger agentCalls = new AtomicInteger(), customerCalls = new AtomicInteger();
        Path file = tmp.resolve("cache.yaml");
        Files.writeString(file, SPEC);
        Path dir = tmp.resolve("lite");
        try (var pgServer = PostgresServer.shared().createDatabase();
                ScriptedModelServer server = ScriptedModelServer.start(req -> {
                    if (req.path().endsWith("/messages")) {
                        DecodedRequest d = req.anthropic();
                        Turn t = new GoldReplayAgent(task).next(d.history(), d.tools());
                        agentCalls.incrementAndGet();
                        return Reply.json(AnthropicMessages.encodeResponse(
                                new Message.Assistant(
                                        t.message().content(), t.message().toolCalls(), AGENT),
                                d.model(),
                                "msg_" + req.index()));
                    }
                    DecodedRequest d = req.chat();
                    Turn t = new ScriptedUser(task).next(d.history(), d.tools());
                    customerCalls.incrementAndGet();
                    return Reply.json(OpenAiChat.encodeResponse(
                            new Message.Assistant(
                                    t.message().content(), t.message().toolCalls(), CUSTOMER),
                            d.model(),
                            "chatcmpl-" + req.index()));
                })) {
            // The wires as the server sent them: Anthropic's input_tokens without the cache, OpenAI's with it.
            assertEquals(
                    PyDict.of(
                            "input_tokens", 100,
                            "cache_creation_input_tokens", 200,
                            "cache_read_input_tokens", 1000,
                            "output_tokens", 10),
                    AnthropicMessages.encodeResponse(new Message.Assistant("x", List.of(), AGENT), "m", "i")
                            .get("usage"));
            assertEquals(
                    PyDict.of("cached_tokens", 800),
                    OpenAiChat.encodeResponse(new Message.Assistant("x", List.of(), CUSTOMER), "m", "i")
                            .get("usage")
                            .asDict()
                            .get("prompt_tokens_details"));
            Registry registry = Registry.load()
                    .with(
                            List.of(),
                            List.of(
                                    new ProviderModels("openai", server.openAiEnv()) {},
                                    new ProviderModels("anthropic", server.anthropicEnv("dummy-key")) {}));
            StoreLocation pg = StoreLocation.parse(pgServer.url());
            for (StoreLocation store : List.of(StoreLocation.of(dir), pg)) {
                var r = Experiments.run(ExperimentSpec.read(file), store, registry);
                assertEquals(1, r.completed(), r.summary());
            }
            int agent = agentCalls.get() / 2, customer = customerCalls.get() / 2; // the same episode twice
            assertTrue(agent >= 2 && customer >= 2, agent + " agent and " + customer + " customer calls");

            for (StoreLocation store : List.of(StoreLocation.of(dir), pg)) {
                try (ExperimentQuery q = ExperimentQuery.open(store)) {
                    Evidence e = q.attempts(true).getFirst().evidence();
                    assertEquals(1.0, q.attempts(true).getFirst().reward(), store.toString());
                    // Recorded with the attempt, summed over the role's calls.
                    assertEquals(
                            new Usage(1300L * agent, 10L * agent, 1000L * agent, 200L * agent),
                            e.usage().get(Evidence.AGENT));
                    assertEquals(
                            new Usage(1000L * customer, 50L * customer, 800L * customer, 0),
                            e.usage().get("user"));
                }
                Scorecard card = Experiments.scorecard(store);
                var m = card.rows().getFirst().cost().perEpisode();
                assertEquals(agent * AGENT_CALL_USD, m.usd(Evidence.AGENT), 1e-15, store.toString());
                assertEquals(customer * CUSTOMER_CALL_USD, m.usd("user"), 1e-15, store.toString());
                assertEquals(1300.0 * agent, m.inputTokens(), "input tokens count the cache's reads and writes");
                assertTrue(Double.isNaN(m.usd("judge")), "retail task 5 asks no judge: a dash, not $0");
                assertCsv(TableCsv.csv(ScorecardTables.summary(card)), agent, customer);
            }
        }
        assertCsv(
                ExperimentCommandTest.cli("experiment", "show", dir.toString(), "--format", "csv")
                        .out(),
                agent(dir),
                customer(dir));

        StringWriter html = new StringWriter();
        ExperimentReport.write(dir, Registry.load(), html);
        String page = html.toString();
        assertTrue(page.contains(">usd_agent/ep</th>") && page.contains(">usd_user/ep</th>"), "the report's columns");
        for (double usd : new double[] {agent(dir) * AGENT_CALL_USD, customer(dir) * CUSTOMER_CALL_USD})
            assertTrue(
                    page.contains(">" + brokkr.render.Numbers.sig3(usd) + "<"),
                    brokkr.render.Numbers.sig3(usd) + " in the report");
    }

    /** The agent's and customer's calls of the stored episode (as recorded). */
    private static int agent(Path dir) {
        return calls(dir, Evidence.AGENT);
    }

    private static int customer(Path dir) {
        return calls(dir, "user");
    }

    private static int calls(Path dir, String role) {
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return (int) q.attempts(true).getFirst().evidence().modelCalls().stream()
                    .filter(c -> c.role().equals(role))
                    .count();
        }
    }

    /** The CSV's usd_agent/ep and usd_user/ep of the gold row: exactly the calls at the cache-aware prices. */
    private static void assertCsv(String csv, int agent, int customer) {
        List<String> lines = csv.lines().toList();
        String headLine = lines.stream()
                .filter(l -> l.startsWith("benchmark,"))
                .findFirst()
                .orElseThrow();
        List<String> head = List.of(headLine.split(","));
        String[] row = lines.stream()
                .filter(l -> l.startsWith("tau2-retail,gold,"))
                .findFirst()
                .orElseThrow()
                .split(",", -1);
        Map<String, Double> want =
                Map.of("usd_agent/ep", agent * AGENT_CALL_USD, "usd_user/ep", customer * CUSTOMER_CALL_USD);
        want.forEach(
                (col, usd) -> assertEquals(usd, Double.parseDouble(row[head.indexOf(col)]), 1e-15, col + ": " + csv));
        assertEquals("", row[head.indexOf("usd_judge/ep")], "no judge: empty, never 0");
    }
}
