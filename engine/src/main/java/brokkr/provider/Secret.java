package brokkr.provider;

/**
 * An API key. It is only ever revealed to build the authentication header; {@link #toString} never
 * shows it, and {@link #redact} scrubs it from any text that is about to be recorded, logged or
 * thrown (error bodies of some servers echo the key they rejected).
 */
public final class Secret {
    public static final String REDACTED = "[REDACTED]";
    private static final Secret NONE = new Secret(null);

    private final String value;

    private Secret(String value) { this.value = value; }

    /** A key, or {@link #none()} when {@code value} is null or blank (local servers need none). */
    public static Secret of(String value) {
        return value == null || value.isBlank() ? NONE : new Secret(value.strip());
    }

    public static Secret none() { return NONE; }

    public boolean isPresent() { return value != null; }

    /** The key itself: for the request header only. */
    String reveal() { return value; }

    /** Keys shorter than this are not scrubbed from text; see {@link #redact}. */
    public static final int MIN_REDACTED_LENGTH = 8;

    /**
     * {@code text} with every occurrence of the key replaced by {@value #REDACTED}; null stays null.
     * Values shorter than {@value #MIN_REDACTED_LENGTH} characters are left alone: they are the
     * placeholders local servers accept ({@code EMPTY}, {@code dummy}, {@code none}), not secrets, and
     * scrubbing such common words would corrupt the records. Real provider keys are far longer.
     */
    public String redact(String text) {
        if (text == null || value == null || value.length() < MIN_REDACTED_LENGTH) return text;
        return text.replace(value, REDACTED);
    }

    @Override public String toString() { return value == null ? "Secret[none]" : "Secret[" + REDACTED + "]"; }
}
