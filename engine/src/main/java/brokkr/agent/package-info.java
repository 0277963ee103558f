/**
 * Brokkr's agent loop. {@link brokkr.agent.AgentLoop} asks a {@code brokkr.conversation.Candidate} for its next
 * message, runs that message's tool calls as one turn through a {@link brokkr.agent.ToolExecutor} (one after
 * another, or concurrently on virtual threads), each call answered by a thread-safe
 * {@link brokkr.agent.ToolHandler} with a {@link brokkr.agent.ToolResult}, and stops when the candidate answers
 * without calls or runs out of steps, leaving a {@link brokkr.agent.Transcript}. Nothing a candidate sends
 * crashes the loop; only the candidate's own infrastructure failure ends it early. {@link brokkr.agent.YieldingLoop}
 * runs the same loop as the agent of a step-driven protocol (tau2's half-duplex orchestrator, BFCL multi-turn's
 * inference), handing every protocol-side call over so that the protocol records and grades it as its own.
 * The package knows conversations, not benchmarks.
 */
package brokkr.agent;
