package brokkr.provider;

import brokkr.value.PyDict;
import java.time.Duration;
import java.util.Objects;

/**
 * How a provider calls its model. Sampling fields that are {@code null} are not sent, so the server's
 * own default applies (and the recorded request says exactly what was asked).
 *
 * @param model             the model name sent in the request
 * @param temperature       sampling temperature, or null (not sent)
 * @param maxTokens         output token limit, or null; OpenAI-compatible: {@code max_tokens} (not sent
 *                          when null); Anthropic requires one, so null means {@link #ANTHROPIC_DEFAULT_MAX_TOKENS}
 * @param parallelToolCalls null = not sent (server default); false/true = {@code parallel_tool_calls}
 *                          (OpenAI) or {@code disable_parallel_tool_use} (Anthropic, sent only for false)
 * @param timeout           per attempt: connect, and the whole exchange until the body has arrived
 * @param maxAttempts       attempts per {@code next} call, at least 1
 * @param backoffBase       first retry's backoff ceiling; doubles per retry (full jitter below it)
 * @param backoffCap        largest backoff ceiling
 * @param retryAfterCap     largest wait honoured from a server's {@code Retry-After}
 * @param extra             further top-level request fields appended after the standard ones, in their
 *                          order (e.g. {@code seed}, {@code top_p}, {@code max_completion_tokens} for
 *                          OpenAI reasoning models that refuse {@code max_tokens}); never credentials
 * @param maxResponseBytes  the largest response body read; a longer one is a provider error, not retried,
 *                          and is not read further (a runaway body must not take the memory and the store)
 */
public record ProviderOptions(
        String model,
        Double temperature,
        Integer maxTokens,
        Boolean parallelToolCalls,
        Duration timeout,
        int maxAttempts,
        Duration backoffBase,
        Duration backoffCap,
        Duration retryAfterCap,
        PyDict extra,
        long maxResponseBytes) {

    public static final int ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
    /** 8 MiB: far above any chat completion, far below what a misbehaving server can send. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 8L << 20;

    public ProviderOptions {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(backoffBase, "backoffBase");
        Objects.requireNonNull(backoffCap, "backoffCap");
        Objects.requireNonNull(retryAfterCap, "retryAfterCap");
        if (maxAttempts < 1) throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive");
        if (maxTokens != null && maxTokens < 1) throw new IllegalArgumentException("maxTokens must be positive");
        extra = extra == null ? PyDict.empty() : extra;
        if (maxResponseBytes < 1)
            throw new IllegalArgumentException("maxResponseBytes must be positive: " + maxResponseBytes);
    }

    /**
     * Two minutes per attempt, five attempts, backoff 1 s doubling to 60 s, Retry-After honoured up to
     * 120 s, response bodies up to {@link #DEFAULT_MAX_RESPONSE_BYTES}.
     */
    public static ProviderOptions defaults(String model) {
        return new ProviderOptions(
                model,
                null,
                null,
                null,
                Duration.ofSeconds(120),
                5,
                Duration.ofSeconds(1),
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                PyDict.empty(),
                DEFAULT_MAX_RESPONSE_BYTES);
    }

    public ProviderOptions withModel(String m) {
        return new ProviderOptions(
                m,
                temperature,
                maxTokens,
                parallelToolCalls,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withTemperature(Double t) {
        return new ProviderOptions(
                model,
                t,
                maxTokens,
                parallelToolCalls,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withMaxTokens(Integer n) {
        return new ProviderOptions(
                model,
                temperature,
                n,
                parallelToolCalls,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withParallelToolCalls(Boolean p) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                p,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withTimeout(Duration d) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                parallelToolCalls,
                d,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withMaxAttempts(int n) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                parallelToolCalls,
                timeout,
                n,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withBackoff(Duration base, Duration cap) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                parallelToolCalls,
                timeout,
                maxAttempts,
                base,
                cap,
                retryAfterCap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withRetryAfterCap(Duration cap) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                parallelToolCalls,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                cap,
                extra,
                maxResponseBytes);
    }

    public ProviderOptions withMaxResponseBytes(long n) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                parallelToolCalls,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                extra,
                n);
    }

    public ProviderOptions withExtra(PyDict e) {
        return new ProviderOptions(
                model,
                temperature,
                maxTokens,
                parallelToolCalls,
                timeout,
                maxAttempts,
                backoffBase,
                backoffCap,
                retryAfterCap,
                e,
                maxResponseBytes);
    }
}
