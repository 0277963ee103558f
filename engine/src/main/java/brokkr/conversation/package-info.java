/**
 * A conversation between a candidate, a (simulated) user and tools, as plain data: the
 * {@link brokkr.conversation.Message}s, the {@link brokkr.conversation.ToolCall}s an assistant emits and the
 * {@link brokkr.conversation.ToolSpec}s it is offered, and {@link brokkr.conversation.Candidate}, whatever
 * produces the next assistant message (a model behind a provider, or a scripted policy) as a
 * {@link brokkr.conversation.Turn}. Every model-call attempt is kept for the record as a
 * {@link brokkr.conversation.ModelCall} with its {@link brokkr.conversation.Usage}; a call that could not be
 * completed is an {@link brokkr.conversation.InfrastructureFailure}, recorded and excluded from scores rather than
 * counted against the model. Providers ({@code brokkr.provider}), the agent loop and every benchmark protocol
 * speak these types; the package itself knows only {@code brokkr.value}.
 */
package brokkr.conversation;
