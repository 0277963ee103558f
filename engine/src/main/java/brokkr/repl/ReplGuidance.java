package brokkr.repl;

import java.util.List;

/**
 * The guidance a REPL prompt gives about working in Java (a candidate's {@code repl_guidance}; each
 * is a different candidate, its name in the candidate's content).
 */
public enum ReplGuidance {
    /** Look at data before computing over it. */
    SHAPE("Before computing over a result, look at its structure: print %sshape(...) summaries or a small part of it, "
            + "then write the code that uses the fields you saw. Do not guess field names."),
    /** Do the work in code. */
    COMPUTE(
            "Do the work in code: parse results into maps and lists, filter, sum and compare in Java rather than by reading, "
                    + "and make several independent tool calls in one snippet when you already know their arguments."),
    /** Read results before acting. */
    INSPECT(
            "Work step by step: make one tool call per snippet, print its whole result, read it, and only then decide the next call."),
    /**
     * Code against the curated result types, which the prompt then shows (issue 32's variant: whether seeing the
     * types helps or makes agents trust the schema over the records). Only for domains with result types.
     */
    TYPED("Each tool's result has the type given under \"Result types\": write the code that uses a result against "
            + "those fields; %scheck(\"type\", value) says whether a value fits a type (null) or where it does not.");

    private final String text;

    ReplGuidance(String text) {
        this.text = text;
    }

    /** The text, naming the helpers as methods of {@code namespace} (e.g. {@code "tau2."}, or {@code ""}). */
    public String text(String namespace) {
        return text.replace("%s", namespace);
    }

    /** The text where the tools ({@code what}) have no result types, so {@link #TYPED} cannot be given. */
    public String untypedText(String namespace, String what) {
        if (this == TYPED)
            throw new IllegalArgumentException("repl_guidance typed needs result types; " + what + " have none");
        return text(namespace);
    }

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static ReplGuidance of(String id) {
        for (ReplGuidance g : values()) if (g.id().equals(id)) return g;
        throw new IllegalArgumentException(
                "unknown repl_guidance '" + id + "' (known: " + String.join(", ", names()) + ")");
    }

    public static List<String> names() {
        return java.util.Arrays.stream(values()).map(ReplGuidance::id).toList();
    }
}
