package brokkr.domains.tau2.orchestrator;

import brokkr.conversation.Candidate;
import brokkr.conversation.ToolSpec;
import java.util.List;

/**
 * The simulated customer: a candidate that sees the conversation with roles flipped (upstream
 * {@code UserState.flip_roles}: its own messages as {@code assistant}, the agent's text as {@code user}),
 * given upstream's per-task user-simulator system prompt and the user tools (empty when none).
 */
public record UserSide(String name, Candidate candidate, String systemPrompt, List<ToolSpec> tools) {
    public UserSide {
        tools = List.copyOf(tools);
    }
}
