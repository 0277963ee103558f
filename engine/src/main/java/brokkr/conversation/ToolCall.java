package brokkr.conversation;

import brokkr.value.PyDict;

/**
 * A tool call as the model emitted it. {@code arguments} are the parsed keyword arguments;
 * {@code rawArguments} the text the model sent (kept for the record). When that text was not a JSON
 * object, {@code arguments} is empty and {@code malformed} says why: an agent error, not a crash.
 */
public record ToolCall(String id, String name, PyDict arguments, String rawArguments, String malformed) {
    public ToolCall(String id, String name, PyDict arguments) {
        this(id, name, arguments, null, null);
    }

    public boolean isMalformed() {
        return malformed != null;
    }
}
