package brokkr.cli;

import static brokkr.cli.FleetFixture.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.experiment.testing.PostgresServer;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment's budget is honoured by a fleet (real PostgreSQL server, worker processes): the loop benchmark's
 * ideal follower over loopback, every call reporting 100 + 10 tokens, 20 cells, {@code budget: {max_tokens: 1500}}.
 * Two workers of one slot each claim no new cell once the store's attempts (both workers') reach it: fewer than 20
 * attempts, at least 1500 tokens, and at most two cells a worker after the one that crossed it. Registered again with a larger budget, a worker goes on and finishes every cell.
 */
class FleetBudgetTest {
    @TempDir
    Path tmp;

    @Test
    void workersStopClaimingWhenTheStoresSpendReachesTheBudgetAndALargerOneGoesOn() throws Exception {
        LoopFollower ideal = LoopFollower.ideal();
        try (ScriptedModelServer model = ScriptedModelServer.start(r -> {
                    DecodedRequest req = r.chat();
                    Turn t = ideal.next(req.history(), req.tools());
                    Message.Assistant m = new Message.Assistant(
                            t.message().content(), t.message().toolCalls(), new Usage(100, 10));
                    return ScriptedModelServer.Reply.json(OpenAiChat.encodeResponse(m, req.model(), "c" + r.index()));
                });
                PostgresServer.Database db = PostgresServer.shared().createDatabase()) {
            Path spec = FleetFixture.spec(tmp, "budgeted", 2, 10, 1, "{id: gpt, provider: openai, model: loop-model}");
            String base = Files.readString(spec);
            Files.writeString(spec, base + "budget: {max_tokens: 1500}\n");
            String url = db.url("budgeted");
            FleetFixture.Run reg = cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0");
            assertEquals(0, reg.code(), reg.err());
            Map<String, String> env = Map.of("OPENAI_BASE_URL", model.baseUrl(), "OPENAI_API_KEY", "sk-test");
            List<Process> workers = new ArrayList<>();
            for (int i = 0; i < 2; i++)
                workers.add(FleetFixture.worker(url, tmp.resolve("w" + i + ".log"), env, "--slots", "1"));
            for (int i = 0; i < 2; i++) assertEquals(0, FleetFixture.await(workers.get(i), 240), log(i));
            List<Long> tokens = tokens(db.connect());
            long sum = tokens.stream().mapToLong(Long::longValue).sum();
            assertTrue(tokens.size() < 20, tokens.size() + " cells ran: " + tokens);
            assertTrue(sum >= 1500, sum + " tokens");
            // A worker sees the store's spend before each claim: past the budget it may still have one cell
            // finishing (its attempt not yet written) and the one it had just claimed, so at most two cells a worker
            // after the one that crossed it.
            long crossed = 0;
            int crossing = 0;
            while (crossed < 1500) crossed += tokens.get(crossing++);
            assertTrue(tokens.size() - crossing <= 4, "cells after the budget was reached: " + tokens);
            String logs = log(0) + log(1);
            assertTrue(
                    logs.matches(
                            "(?s).*experiment budgeted reached its budget \\(\\d+ of 1500 tokens\\): no new cell of it is claimed.*"),
                    logs);

            // A larger budget: the same cells, the rest of them run.
            Files.writeString(spec, base + "budget: {max_tokens: 1000000}\n");
            assertEquals(
                    0,
                    cli("experiment", "run", spec.toString(), "--store", url, "--workers", "0")
                            .code());
            Process more = FleetFixture.worker(url, tmp.resolve("w2.log"), env, "--slots", "2");
            assertEquals(0, FleetFixture.await(more, 240), log(2));
            assertEquals(20, tokens(db.connect()).size(), log(2));
        }
    }

    private String log(int i) throws java.io.IOException {
        Path f = tmp.resolve("w" + i + ".log");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /** Each completed attempt's agent tokens, in the order they were recorded. */
    private static List<Long> tokens(Connection c) throws Exception {
        List<Long> out = new ArrayList<>();
        try (c;
                Statement s = c.createStatement()) {
            s.execute("SET search_path TO budgeted");
            try (ResultSet r = s.executeQuery(
                    "SELECT input_tokens + output_tokens FROM attempt WHERE status = 'completed' ORDER BY id")) {
                while (r.next()) out.add(r.getLong(1));
            }
        }
        return out;
    }
}
