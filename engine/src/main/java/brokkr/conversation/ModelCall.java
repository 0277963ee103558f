package brokkr.conversation;

/**
 * One attempt of one model call, for the record: the exact request body sent (never credentials),
 * the HTTP status (0 when no response arrived), the response body or the error, and timing.
 */
public record ModelCall(String provider, String model, int attempt, String requestBody, int status,
                        String responseBody, String error, long startedAtMillis, long durationMillis) {}
