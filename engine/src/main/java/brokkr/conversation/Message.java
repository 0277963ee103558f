package brokkr.conversation;

import brokkr.value.PyDict;
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

    /**
     * An assistant turn: optional text and zero or more tool calls (several = parallel calls).
     *
     * <p>{@code reasoning}: the reasoning items the provider returned with this turn, in its own wire shape (the
     * OpenAI Responses API's {@code {"type": "reasoning", "id", "summary", "encrypted_content"}} output items),
     * opaque to everything but that wire, which sends them back verbatim before this turn's output in the next
     * request: a reasoning model that is not handed its earlier reasoning between tool calls reasons again from
     * scratch (and scores differently). Empty for wires and candidates that return none; kept in transcripts.
     */
    record Assistant(String content, List<ToolCall> toolCalls, Usage usage, List<PyDict> reasoning) implements Message {
        public Assistant {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
            reasoning = reasoning == null ? List.of() : List.copyOf(reasoning);
        }

        public Assistant(String content, List<ToolCall> toolCalls, Usage usage) {
            this(content, toolCalls, usage, List.of());
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

        /** This turn with {@code u} as its usage, its reasoning kept. */
        public Assistant withUsage(Usage u) {
            return new Assistant(content, toolCalls, u, reasoning);
        }
    }

    /** The result of one tool call, answering the call with the same id. */
    record Tool(String toolCallId, String name, String content, boolean error) implements Message {}
}
