package brokkr.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ModelCall;
import brokkr.conversation.Usage;
import brokkr.eval.Evidence;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each role's spend from an attempt's record: its model, tokens, date, and the cost a backend reported itself. */
class RoleSpendTest {
    /** A Claude Code call's recorded stdout: its result line reports the CLI's own estimate. */
    static final String STDOUT = """
            {"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4-5"}
            {"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1,"total_cost_usd":0.0456,\
            "modelUsage":{"claude-sonnet-4-5":{"inputTokens":1000,"outputTokens":200,"cacheReadInputTokens":0,\
            "cacheCreationInputTokens":0,"costUSD":0.0456}}}
            """;

    static final long AUG_1 = LocalDate.parse("2026-08-01").toEpochDay() * 86_400_000L + 3_600_000L;

    @Test
    void rolesAreApartAndClaudeCodesOwnCostIsReadBesideTheTables() {
        Evidence e = new Evidence(
                null,
                null,
                null,
                "agent_stop",
                null,
                List.of(
                        new Evidence.RecordedCall(
                                "agent",
                                new ModelCall(
                                        "claude-code", "claude-sonnet-4-5", 1, "{}", 200, STDOUT, null, AUG_1, 5)),
                        new Evidence.RecordedCall(
                                "judge", new ModelCall("openai", "gpt-4o", 1, "{}", 200, "{}", null, AUG_1, 5)),
                        new Evidence.RecordedCall(
                                "user", new ModelCall("openai", "gpt-4o", 1, "{}", 200, "{}", null, AUG_1, 5)),
                        new Evidence.RecordedCall(
                                "user", new ModelCall("openai", "gpt-4o-mini", 1, "{}", 200, "{}", null, AUG_1, 5))),
                Map.of("agent", new Usage(1000, 200), "judge", new Usage(100, 10), "user", new Usage(50, 5)),
                null,
                null);
        Map<String, RoleSpend> by = new java.util.HashMap<>();
        for (RoleSpend s : RoleSpend.of(e)) by.put(s.role(), s);
        RoleSpend agent = by.get("agent");
        assertEquals(LocalDate.parse("2026-08-01"), agent.date());
        assertEquals(0.0456, agent.reportedUsd());
        PriceTable t = PriceTable.pinned();
        // The table's figure beside the backend's: 1000 x $3 + 200 x $15 per million.
        assertEquals(0.006, agent.usd(t), 1e-15);
        // The judge's cost is its own (gpt-4o at $2.5 / $10): 100 x 2.5 + 10 x 10 per million.
        assertEquals(0.00035, by.get("judge").usd(t), 1e-15);
        assertNull(by.get("judge").reportedUsd(), "only Claude Code reports a cost");
        // A role whose calls name two models cannot be priced from its summed tokens: a dash.
        assertNull(by.get("user").model());
        assertTrue(Double.isNaN(by.get("user").usd(t)));
    }

    /**
     * Claude Code's modelUsage keeps the cache's reads and writes apart from its inputTokens; Brokkr's tokens
     * count them in the input and price them at the cache's rates, which gives what the CLI itself reports as
     * costUSD at the same prices: 100 * 3 + 5000 * 0.3 + 1000 * 3.75 + 200 * 15 = 8550e-6 USD.
     */
    @Test
    void claudeCodesCacheTokensArePricedAtTheCacheRatesAsTheCliPricesThem() {
        var r = new brokkr.provider.claudecode.StreamJson.Reader();
        STDOUT.replace("\"inputTokens\":1000", "\"inputTokens\":100")
                .replace("\"cacheReadInputTokens\":0", "\"cacheReadInputTokens\":5000")
                .replace("\"cacheCreationInputTokens\":0", "\"cacheCreationInputTokens\":1000")
                .replace("0.0456", "0.00855")
                .lines()
                .forEach(r::accept);
        Usage u = r.usage().usage();
        assertEquals(new Usage(6100, 200, 5000, 1000), u);
        assertEquals(0.00855, r.usage().costUsd());
        assertEquals(
                r.usage().costUsd(),
                PriceTable.pinned().usd("claude-code", "claude-sonnet-4-5", u, LocalDate.parse("2026-08-01")),
                1e-12);
    }
}
