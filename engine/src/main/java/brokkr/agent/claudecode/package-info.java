/**
 * Claude Code as the agent ({@code harness: claude-code}): {@link brokkr.agent.claudecode.ClaudeCodeLoop} runs the
 * CLI ({@code brokkr.provider.claudecode}: the isolated launch, the stream-json reader) in one persistent session
 * per episode whose only tools are the protocol's, served over MCP ({@code brokkr.mcp}); each MCP call is handed
 * to the protocol as its own tool call. The domains' adapters ({@code tau2.harness}, BFCL's agent) drive it.
 */
package brokkr.agent.claudecode;
