package brokkr.provider;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Which failures are retried and how long to wait: pure functions, so they are tested without a
 * network or a clock.
 */
public record RetryPolicy(int maxAttempts, Duration base, Duration cap, Duration retryAfterCap) {

    public static RetryPolicy of(ProviderOptions o) {
        return new RetryPolicy(o.maxAttempts(), o.backoffBase(), o.backoffCap(), o.retryAfterCap());
    }

    /**
     * Statuses worth another attempt: 408 (request timeout), 409 (OpenAI's and Anthropic's SDKs retry
     * lock conflicts), 429 (rate limit) and every 5xx (including Anthropic's 529 "overloaded"). Any other
     * 4xx is the request's fault and would fail again.
     */
    public static boolean retryableStatus(int status) {
        return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599);
    }

    /**
     * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff and Jitter"):
     * a uniform wait in [0, min(cap, base * 2^(retry-1))), where {@code retry} counts from 1 and
     * {@code u} is uniform in [0, 1).
     */
    public Duration backoff(int retry, double u) {
        long ceiling = Math.min(cap.toMillis(), base.toMillis() << Math.min(Math.max(retry - 1, 0), 30));
        return Duration.ofMillis((long) Math.floor(Math.max(0, Math.min(u, 1)) * ceiling));
    }

    /**
     * The wait before the next attempt: the server's {@code Retry-After} when it sent one (capped at
     * {@link #retryAfterCap}), otherwise the jittered backoff.
     */
    public Duration delay(int retry, double u, Optional<Duration> retryAfter) {
        return retryAfter
                .map(d -> d.compareTo(retryAfterCap) > 0 ? retryAfterCap : d)
                .orElseGet(() -> backoff(retry, u));
    }

    /**
     * {@code Retry-After} (RFC 9110 §10.2.3): delay-seconds or an HTTP-date (relative to {@code now}; a
     * date in the past means no wait). {@code retry-after-ms} (sent by OpenAI, honoured by its SDKs) is
     * preferred when present. Anything unparseable is ignored.
     */
    public static Optional<Duration> parseRetryAfter(
            Optional<String> retryAfterMs, Optional<String> retryAfter, Instant now) {
        if (retryAfterMs.isPresent()) {
            try {
                double ms = Double.parseDouble(retryAfterMs.get().strip());
                if (ms >= 0 && Double.isFinite(ms)) return Optional.of(Duration.ofMillis((long) Math.ceil(ms)));
            } catch (NumberFormatException ignored) {
                // fall through to Retry-After
            }
        }
        if (retryAfter.isEmpty()) return Optional.empty();
        String v = retryAfter.get().strip();
        if (v.isEmpty()) return Optional.empty();
        if (v.chars().allMatch(Character::isDigit)) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
            } catch (NumberFormatException tooLong) {
                return Optional.of(Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L));
            }
        }
        try {
            Instant at =
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
