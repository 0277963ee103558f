package brokkr.conversation;

/** Tokens of one model call (or a sum of calls). */
public record Usage(long inputTokens, long outputTokens) {
    public static final Usage ZERO = new Usage(0, 0);

    public Usage plus(Usage o) {
        return new Usage(inputTokens + o.inputTokens, outputTokens + o.outputTokens);
    }
}
