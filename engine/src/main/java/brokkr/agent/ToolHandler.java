package brokkr.agent;

import brokkr.conversation.ToolCall;

/**
 * Answers one well-formed tool call. A handler may be called from several threads at once (a
 * concurrent executor runs the calls of one turn in parallel), so it must be thread-safe; an
 * exception it throws becomes an error result, never a crash of the episode.
 */
@FunctionalInterface
public interface ToolHandler {
    ToolResult handle(ToolCall call);
}
