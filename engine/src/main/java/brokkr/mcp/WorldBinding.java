package brokkr.mcp;

import brokkr.agent.ToolResult;
import brokkr.conversation.ToolSpec;
import brokkr.value.PyDict;
import java.util.List;

/**
 * What a {@link WorldMcpServer} serves: the tools an MCP client may call and what a call does. The binding's owner
 * keeps the world and advances it in {@link #call}: the server holds no world of its own, so a harness records each
 * call (as a tool-call message, with its step and error accounting) on the episode's world, never on a copy.
 */
public interface WorldBinding {
    /** The tools as the domain offers them to an agent (name, description, JSON-schema parameters), in its order. */
    List<ToolSpec> tools();

    /**
     * One {@code tools/call}: runs {@code tool} with the client's arguments on the current world, which it then
     * advances. The server makes calls one at a time (over stdio in the order the client sent them; concurrent HTTP
     * requests in the order they reach it). The result's content is the
     * tool call's text as the agent would read it, its error flag the MCP result's {@code isError}. A call that
     * throws is answered as a JSON-RPC error (an infrastructure fault, never a tool result).
     */
    ToolResult call(String tool, PyDict arguments);
}
