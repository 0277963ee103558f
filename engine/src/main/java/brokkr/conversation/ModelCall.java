package brokkr.conversation;

/**
 * One attempt of one model call, for the record: the exact request body sent (never credentials),
 * the HTTP status (0 when no response arrived), the response body or the error, and timing.
 * {@code cacheHit}: the response was served from an experiment's model-call cache (a response recorded
 * earlier for the same model, request body and trial) and nothing was sent.
 */
public record ModelCall(
        String provider,
        String model,
        int attempt,
        String requestBody,
        int status,
        String responseBody,
        String error,
        long startedAtMillis,
        long durationMillis,
        boolean cacheHit) {

    /** A call that was sent (not served from a cache). */
    public ModelCall(
            String provider,
            String model,
            int attempt,
            String requestBody,
            int status,
            String responseBody,
            String error,
            long startedAtMillis,
            long durationMillis) {
        this(
                provider,
                model,
                attempt,
                requestBody,
                status,
                responseBody,
                error,
                startedAtMillis,
                durationMillis,
                false);
    }
}
