package brokkr.conversation;

import java.util.List;

/** One message of a conversation between a candidate, a user (or simulated user) and tools. */
public sealed interface Message permits Message.System, Message.User, Message.Assistant, Message.Tool {

    /** Text content, or null when the message has none. */
    String content();

    record System(String content) implements Message {}

    /** A user turn; a simulated user with tools of its own (tau2 telecom) may also call tools. */
    record User(String content, List<ToolCall> toolCalls) implements Message {
        public User {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        public User(String content) {
            this(content, List.of());
        }
    }

    /** An assistant turn: optional text and zero or more tool calls (several = parallel calls). */
    record Assistant(String content, List<ToolCall> toolCalls, Usage usage) implements Message {
        public Assistant {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        public Assistant(String content) {
            this(content, List.of(), Usage.ZERO);
        }

        public Assistant(String content, List<ToolCall> toolCalls) {
            this(content, toolCalls, Usage.ZERO);
        }

        public boolean hasToolCalls() {
            return !toolCalls.isEmpty();
        }
    }

    /** The result of one tool call, answering the call with the same id. */
    record Tool(String toolCallId, String name, String content, boolean error) implements Message {}
}
