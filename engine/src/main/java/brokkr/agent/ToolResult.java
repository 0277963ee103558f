package brokkr.agent;

/** What a tool answered to one call: the text the model will read, and whether it is an error. */
public record ToolResult(String content, boolean error) {
    public static ToolResult ok(String content) {
        return new ToolResult(content, false);
    }

    public static ToolResult error(String content) {
        return new ToolResult(content, true);
    }
}
