package brokkr.provider;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private final RetryPolicy policy =
            new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(60));

    @Test
    void fullJitterStaysBelowTheDoublingCeilingAndTheCap() {
        assertEquals(Duration.ZERO, policy.backoff(1, 0.0));
        assertEquals(Duration.ofMillis(999), policy.backoff(1, 0.999));
        assertEquals(Duration.ofMillis(1000), policy.backoff(2, 0.5));
        assertEquals(Duration.ofMillis(2000), policy.backoff(3, 0.5));
        assertEquals(Duration.ofMillis(4000), policy.backoff(9, 0.5), "capped at 8 s");
        assertEquals(Duration.ofMillis(4000), policy.backoff(200, 0.5), "no overflow for large retry counts");
    }

    @Test
    void retryAfterWinsOverBackoffAndIsCapped() {
        assertEquals(Duration.ofSeconds(3), policy.delay(1, 0.9, Optional.of(Duration.ofSeconds(3))));
        assertEquals(Duration.ofSeconds(60), policy.delay(1, 0.9, Optional.of(Duration.ofHours(1))));
        assertEquals(Duration.ofMillis(900), policy.delay(1, 0.9, Optional.empty()));
    }

    @Test
    void retryAfterParsesSecondsDatesAndMilliseconds() {
        assertEquals(
                Optional.of(Duration.ofSeconds(20)),
                RetryPolicy.parseRetryAfter(Optional.empty(), Optional.of(" 20 "), NOW));
        assertEquals(
                Optional.of(Duration.ofSeconds(90)),
                RetryPolicy.parseRetryAfter(Optional.empty(), Optional.of("Sun, 29 Nov 2026 12:01:30 GMT"), NOW));
        assertEquals(
                Optional.of(Duration.ZERO),
                RetryPolicy.parseRetryAfter(Optional.empty(), Optional.of("Sun, 29 Nov 2026 11:00:00 GMT"), NOW),
                "a past date means now");
        assertEquals(
                Optional.of(Duration.ofMillis(1501)),
                RetryPolicy.parseRetryAfter(Optional.of("1500.2"), Optional.of("20"), NOW));
        assertEquals(
                Optional.of(Duration.ofSeconds(20)),
                RetryPolicy.parseRetryAfter(Optional.of("soon"), Optional.of("20"), NOW));
        assertEquals(Optional.empty(), RetryPolicy.parseRetryAfter(Optional.empty(), Optional.of("later"), NOW));
        assertEquals(Optional.empty(), RetryPolicy.parseRetryAfter(Optional.empty(), Optional.of("-5"), NOW));
        assertEquals(Optional.empty(), RetryPolicy.parseRetryAfter(Optional.empty(), Optional.empty(), NOW));
        assertTrue(RetryPolicy.parseRetryAfter(Optional.empty(), Optional.of("99999999999999999999999"), NOW)
                        .orElseThrow()
                        .toDays()
                > 1000);
    }

    @Test
    void whichStatusesAreRetried() {
        for (int s : new int[] {408, 409, 429, 500, 502, 503, 504, 529})
            assertTrue(RetryPolicy.retryableStatus(s), "" + s);
        for (int s : new int[] {200, 301, 400, 401, 403, 404, 413, 422})
            assertFalse(RetryPolicy.retryableStatus(s), "" + s);
    }
}
