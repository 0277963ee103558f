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
            "Work step by step: make one tool call per snippet, print its whole result, read it, and only then decide the next call.");

    private final String text;

    ReplGuidance(String text) {
        this.text = text;
    }

    /** The text, naming the helpers as methods of {@code namespace} (e.g. {@code "tau2."}, or {@code ""}). */
    public String text(String namespace) {
        return text.replace("%s", namespace);
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
