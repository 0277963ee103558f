package brokkr.domains.tau2.model;

import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import java.util.List;

/**
 * One message of a tau2 trajectory, as upstream's {@code src/tau2/data_model/message.py} has them:
 * an assistant (agent) message, a user message (the simulated customer, who may call tools of its own)
 * or a tool result, which names the side that asked for it.
 */
public sealed interface Tau2Message permits Tau2Message.Participant, Tau2Message.ToolResult {

    /** Upstream's {@code role} field: {@code assistant}, {@code user} or {@code tool}. */
    String role();

    /** Text content, or null (upstream {@code content=None}). */
    String content();

    /** Upstream {@code ParticipantMessageBase.has_text_content}: content present and not only whitespace. */
    static boolean hasText(String content) {
        return content != null && !content.strip().isEmpty();
    }

    /** An agent or user message: text, tool calls, or (against the protocol) both or neither. */
    sealed interface Participant extends Tau2Message permits Agent, User {
        List<ToolCall> toolCalls();

        Usage usage();
        /** Upstream {@code is_tool_call}: {@code tool_calls is not None}, and upstream maps an empty list to None. */
        default boolean isToolCall() {
            return !toolCalls().isEmpty();
        }

        default boolean hasText() {
            return Tau2Message.hasText(content());
        }
        /** Upstream {@code validate()}: a message needs text or tool calls. */
        default boolean isEmpty() {
            return !hasText() && !isToolCall();
        }
    }

    record Agent(String content, List<ToolCall> toolCalls, Usage usage) implements Participant {
        public Agent {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
            usage = usage == null ? Usage.ZERO : usage;
        }

        public Agent(String content) {
            this(content, List.of(), Usage.ZERO);
        }

        @Override
        public String role() {
            return "assistant";
        }
    }

    record User(String content, List<ToolCall> toolCalls, Usage usage) implements Participant {
        public User {
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
            usage = usage == null ? Usage.ZERO : usage;
        }

        public User(String content) {
            this(content, List.of(), Usage.ZERO);
        }

        @Override
        public String role() {
            return "user";
        }
    }

    /** Upstream {@code ToolMessage}: {@code id} answers the call with that id; {@code name} is kept for the record. */
    record ToolResult(String id, String name, String content, Requestor requestor, boolean error)
            implements Tau2Message {
        @Override
        public String role() {
            return "tool";
        }
    }
}
