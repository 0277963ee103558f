package brokkr.conversation;

import java.util.List;

/**
 * Anything that answers a conversation: a model behind a provider, or a scripted policy. Given the
 * history (system prompt first) and the tools on offer, it produces the next assistant message.
 * Providers that exhaust their retries throw {@link InfrastructureFailure}: an infrastructure fault,
 * recorded and excluded from scores, never a model failure.
 */
@FunctionalInterface
public interface Candidate {
    Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure;
}
