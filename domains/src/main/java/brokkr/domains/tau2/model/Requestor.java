package brokkr.domains.tau2.model;

/** Upstream {@code ToolRequestor}: who made a tool call, so the environment picks agent or user tools. */
public enum Requestor {
    ASSISTANT("assistant"),
    USER("user");

    private final String wire;

    Requestor(String wire) {
        this.wire = wire;
    }

    /** The string upstream uses ({@code "assistant"} / {@code "user"}). */
    public String wire() {
        return wire;
    }

    public static Requestor parse(String s) {
        return switch (s) {
            case "assistant" -> ASSISTANT;
            case "user" -> USER;
            default -> throw new IllegalArgumentException("unknown requestor '" + s + "'");
        };
    }
}
