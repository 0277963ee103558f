package brokkr.conversation;

/**
 * Tokens of one model call (or a sum of calls). {@code inputTokens} counts every input token, those read from
 * or written to the provider's prompt cache included (OpenAI's {@code prompt_tokens} counts its
 * {@code prompt_tokens_details.cached_tokens}; Anthropic's {@code input_tokens} does not, so its decoder adds
 * {@code cache_read_input_tokens} and {@code cache_creation_input_tokens}); {@code cacheReadTokens} and
 * {@code cacheWriteTokens} say how many of them were cache reads and writes (0 when the provider reported
 * none), so that a price table bills them at their own rates and no token is billed twice.
 * {@code reasoningTokens} are the part of {@code outputTokens} the model spent reasoning (the Responses API's
 * {@code output_tokens_details.reasoning_tokens}): billed as output, which they are part of, and reported apart.
 */
public record Usage(
        long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens, long reasoningTokens) {
    public static final Usage ZERO = new Usage(0, 0);

    public Usage {
        if (cacheReadTokens < 0 || cacheWriteTokens < 0 || cacheReadTokens + cacheWriteTokens > inputTokens)
            throw new IllegalArgumentException("cache reads " + cacheReadTokens + " and writes " + cacheWriteTokens
                    + " must be parts of the " + inputTokens + " input tokens");
        if (reasoningTokens < 0 || reasoningTokens > outputTokens)
            throw new IllegalArgumentException(
                    "reasoning tokens " + reasoningTokens + " must be part of the " + outputTokens + " output tokens");
    }

    /** Tokens with cache reads and writes and no reasoning reported apart. */
    public Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
        this(inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, 0);
    }

    /** Tokens without cache reads or writes. */
    public Usage(long inputTokens, long outputTokens) {
        this(inputTokens, outputTokens, 0, 0, 0);
    }

    /** Input tokens neither read from nor written to the cache (billed at the plain input price). */
    public long uncachedInputTokens() {
        return inputTokens - cacheReadTokens - cacheWriteTokens;
    }

    /** Whether any input token was a cache read or write. */
    public boolean cached() {
        return cacheReadTokens != 0 || cacheWriteTokens != 0;
    }

    public Usage plus(Usage o) {
        return new Usage(
                inputTokens + o.inputTokens,
                outputTokens + o.outputTokens,
                cacheReadTokens + o.cacheReadTokens,
                cacheWriteTokens + o.cacheWriteTokens,
                reasoningTokens + o.reasoningTokens);
    }
}
