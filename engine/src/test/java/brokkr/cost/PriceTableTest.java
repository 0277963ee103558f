package brokkr.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Usage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The price table: the pinned LiteLLM copy, a user file over it (dated entries), and a dash for no price. */
class PriceTableTest {
    @TempDir
    Path tmp;

    static final LocalDate DAY = LocalDate.parse("2026-08-01");

    @Test
    void thePinnedTableGivesLiteLlmsPricesPerMillionTokensAndClaudeCodeIsPricedAsAnthropic() {
        PriceTable t = PriceTable.pinned();
        Price p = t.find("anthropic", "claude-sonnet-4-5", DAY).orElseThrow();
        // LiteLLM: input_cost_per_token 3e-06, output 1.5e-05, cache read 3e-07, cache creation 3.75e-06.
        assertEquals(new Price("anthropic", "claude-sonnet-4-5", 3.0, 15.0, 0.3, 3.75, null, "litellm"), p);
        assertEquals(p, t.find("claude-code", "claude-sonnet-4-5", DAY).orElseThrow());
        assertEquals(3.0 * 2 + 15.0 * 0.5, t.usd("anthropic", "claude-sonnet-4-5", new Usage(2_000_000, 500_000), DAY));
        assertEquals("2026-07-24", t.pinnedAsOf());
    }

    /**
     * Cached input billed once, at the cache's rates (the pinned table's cache prices): a million input tokens of
     * claude-sonnet-4-5 of which 600k cache reads ($0.30) and 100k cache writes ($3.75), 300k uncached ($3), then
     * 100k output ($15). gpt-4o has a cache-read price ($1.25) and no cache-write one: a write (never on the chat
     * wire, but a user's table may say one) bills at the input price ($2.50), never at nothing.
     */
    @Test
    void cacheReadsAndWritesAreBilledAtTheCachePricesAndNotAgainAsInput() {
        PriceTable t = PriceTable.pinned();
        Usage sonnet = new Usage(1_000_000, 100_000, 600_000, 100_000);
        assertEquals(
                0.3 * 3 + 0.6 * 0.3 + 0.1 * 3.75 + 0.1 * 15,
                t.usd("anthropic", "claude-sonnet-4-5", sonnet, DAY),
                1e-12);
        assertEquals(
                new Price("openai", "gpt-4o", 2.5, 10.0, 1.25, null, null, "litellm"),
                t.find("openai", "gpt-4o", DAY).orElseThrow());
        Usage gpt = new Usage(1_000_000, 0, 800_000, 100_000);
        assertEquals(0.1 * 2.5 + 0.8 * 1.25 + 0.1 * 2.5, t.usd("openai", "gpt-4o", gpt, DAY), 1e-12);
        assertEquals(2.5, t.usd("openai", "gpt-4o", new Usage(1_000_000, 0), DAY), 1e-12, "uncached: as before");
        assertThrows(
                IllegalArgumentException.class, () -> new Usage(10, 0, 8, 3), "cache tokens are part of the input");
    }

    @Test
    void aModelWithoutAPriceIsNaNNever0() {
        PriceTable t = PriceTable.pinned();
        assertTrue(t.find("openai", "no-such-model", DAY).isEmpty());
        assertTrue(Double.isNaN(t.usd("openai", "no-such-model", new Usage(10, 10), DAY)));
        assertTrue(Double.isNaN(t.usd("ollama", "llama3", new Usage(10, 10), DAY)), "a local model is unpriced");
    }

    @Test
    void theUserFileUnderXdgConfigHomeOverridesAndAddsDatedEntries() throws Exception {
        Path config = tmp.resolve("xdg");
        Files.createDirectories(config.resolve("brokkr"));
        Files.writeString(config.resolve("brokkr/prices.yaml"), """
                prices:
                  anthropic:claude-sonnet-4-5: {input: 2, output: 10, since: 2026-09-01}
                  openai:house-model:
                    - {input: 1, output: 2, since: 2026-01-01}
                    - {input: 0.5, output: 1, since: 2026-06-01}
                """);
        PriceTable t = PriceTable.standard(Map.of("XDG_CONFIG_HOME", config.toString()), tmp.resolve("home"));
        Usage million = new Usage(1_000_000, 1_000_000);
        // Before the user's date the pinned price holds; from it on the user's.
        assertEquals(18.0, t.usd("anthropic", "claude-sonnet-4-5", million, LocalDate.parse("2026-08-31")));
        assertEquals(12.0, t.usd("anthropic", "claude-sonnet-4-5", million, LocalDate.parse("2026-09-01")));
        // An added model: the latest entry in force, none before its first date.
        assertEquals(3.0, t.usd("openai", "house-model", million, LocalDate.parse("2026-03-01")));
        assertEquals(1.5, t.usd("openai", "house-model", million, LocalDate.parse("2026-06-01")));
        assertTrue(Double.isNaN(t.usd("openai", "house-model", million, LocalDate.parse("2025-12-31"))));
        assertEquals(
                config.resolve("brokkr/prices.yaml").toString(),
                t.find("openai", "house-model", DAY).orElseThrow().source());
        // Without XDG_CONFIG_HOME the file is looked for under ~/.config.
        assertEquals(
                tmp.resolve("home/.config/brokkr/prices.yaml"), PriceTable.userFile(Map.of(), tmp.resolve("home")));
    }

    @Test
    void aBadOverrideIsRefusedNamingItsSource() throws Exception {
        Path f = tmp.resolve("p.yaml");
        Files.writeString(f, "prices:\n  gpt-4o: {input: 1, output: 2}\n");
        var e = assertThrows(
                IllegalArgumentException.class, () -> PriceTable.pinned().with(PriceTable.readYaml(f), "p.yaml"));
        assertEquals("p.yaml: price key 'gpt-4o' is not PROVIDER:MODEL", e.getMessage());
        Files.writeString(f, "openai:x: {input: 1, outptu: 2}\n");
        e = assertThrows(
                IllegalArgumentException.class, () -> PriceTable.pinned().with(PriceTable.readYaml(f), "p.yaml"));
        assertTrue(e.getMessage().startsWith("p.yaml: openai:x: unknown price field 'outptu'"), e.getMessage());
    }
}
