package brokkr.cost;

import brokkr.conversation.Usage;
import java.time.LocalDate;

/**
 * What one provider's model costs, in US dollars per million tokens, from the date it holds ({@code since}, null
 * for the pinned table's entries, which hold at any date unless a dated entry does) and where it was read
 * ({@code source}: the pinned table, a user file, an experiment file). A price the source does not give is null.
 *
 * <p>{@link Usage}'s input tokens count the cache's reads and writes; {@link #usd} bills those at the cache-read
 * and cache-write prices and only the rest at the input price, so no cached token is billed twice. An entry
 * without a cache price bills those tokens at its input price: LiteLLM's {@code generic_cost_per_token}
 * ({@code litellm_core_utils/llm_cost_calc/utils.py}, {@code _get_cost_per_unit}'s default 0.0) would bill them
 * at nothing, and a missing price is never read as free here.
 */
public record Price(
        String provider,
        String model,
        Double inputPerMTok,
        Double outputPerMTok,
        Double cacheReadPerMTok,
        Double cacheWritePerMTok,
        LocalDate since,
        String source) {

    /** US dollars for {@code u} at this price; NaN when the input or output price is missing (shown as a dash). */
    public double usd(Usage u) {
        if (inputPerMTok == null || outputPerMTok == null) return Double.NaN;
        double read = cacheReadPerMTok != null ? cacheReadPerMTok : inputPerMTok;
        double write = cacheWritePerMTok != null ? cacheWritePerMTok : inputPerMTok;
        return (u.uncachedInputTokens() * inputPerMTok
                        + u.cacheReadTokens() * read
                        + u.cacheWriteTokens() * write
                        + u.outputTokens() * outputPerMTok)
                / 1_000_000d;
    }
}
