package brokkr.cost;

import brokkr.conversation.Usage;
import java.time.LocalDate;

/**
 * What one provider's model costs, in US dollars per million tokens, from the date it holds ({@code since}, null
 * for the pinned table's entries, which hold at any date unless a dated entry does) and where it was read
 * ({@code source}: the pinned table, a user file, an experiment file). A price the source does not give is null.
 *
 * <p>{@link Usage} records input and output tokens only (the input counting cache reads and writes, as on the
 * Anthropic wire), so {@link #usd} prices every input token at the input price; the cache prices are kept for
 * the table's readers.
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
        return (u.inputTokens() * inputPerMTok + u.outputTokens() * outputPerMTok) / 1_000_000d;
    }
}
