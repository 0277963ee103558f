/**
 * A world served over the Model Context Protocol: {@link brokkr.mcp.WorldMcpServer} offers a
 * {@link brokkr.mcp.WorldBinding}'s tools (their JSON schemas as the domain gives them to an agent) to any MCP
 * client, over streamable HTTP on loopback with a bearer token, or over stdio. The binding's owner keeps the
 * world: every {@code tools/call} is one {@link brokkr.mcp.WorldBinding#call} on it, one at a time, so a harness
 * records the call and advances its own episode exactly as if its agent loop had made it. Knows no benchmark.
 */
package brokkr.mcp;
