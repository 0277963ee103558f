package brokkr.mcp;

import brokkr.agent.ToolResult;
import brokkr.conversation.ToolSpec;
import brokkr.http.LoopbackHttp;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * A {@link WorldBinding} served as an MCP server (the protocol's Java SDK): over streamable HTTP
 * ({@link #startHttp}), bound to loopback unless told otherwise and refusing any request without the bearer token,
 * or over a pair of streams ({@link #serveStdio}). {@code tools/list} carries each tool's JSON schema as the binding
 * gives it; {@code tools/call} is one {@link WorldBinding#call}, made one at a time. The SDK's own validation of
 * arguments against the schema is off: the domain answers malformed arguments itself, with the error text its agent
 * would read.
 */
public final class WorldMcpServer implements AutoCloseable {
    /** The path of the streamable HTTP endpoint. */
    public static final String ENDPOINT = "/mcp";

    private static final ObjectMapper JACKSON = new ObjectMapper();
    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JACKSON);
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

    private final McpSyncServer mcp;
    private final LoopbackHttp jetty;
    private final URI url;
    private final String token;

    private WorldMcpServer(McpSyncServer mcp, LoopbackHttp jetty, URI url, String token) {
        this.mcp = mcp;
        this.jetty = jetty;
        this.url = url;
        this.token = token;
    }

    /** Serves {@code binding} over streamable HTTP on a free loopback port; requests must carry {@code token}. */
    public static WorldMcpServer startHttp(WorldBinding binding, String token) throws IOException {
        return startHttp(binding, token, LoopbackHttp.Options.LOOPBACK);
    }

    /**
     * Serves {@code binding} over streamable HTTP at {@code options}; every request must carry
     * {@code Authorization: Bearer TOKEN} (401 otherwise, before the MCP layer sees it). IllegalArgumentException for a
     * blank token or a host that is not loopback without {@code allowNonLoopback}; IOException when it cannot listen.
     */
    public static WorldMcpServer startHttp(WorldBinding binding, String token, LoopbackHttp.Options options)
            throws IOException {
        if (token == null || token.isBlank()) throw new IllegalArgumentException("an MCP HTTP server needs a token");
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(MAPPER)
                .mcpEndpoint(ENDPOINT)
                .build();
        McpSyncServer mcp = build(McpServer.sync(transport), binding);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), ENDPOINT);
        LoopbackHttp jetty;
        try {
            jetty = LoopbackHttp.start("mcp", context, token, options, LoopbackHttp.Threads.FEW);
        } catch (IOException | RuntimeException e) {
            mcp.close();
            throw e;
        }
        return new WorldMcpServer(mcp, jetty, URI.create(jetty.base() + ENDPOINT), token);
    }

    /**
     * Serves {@code binding} over a stream pair (newline-delimited JSON-RPC, the MCP stdio transport) until
     * {@code in} ends and every request read from it has been answered, then returns. Nothing but protocol messages is written to {@code out}.
     */
    public static void serveStdio(WorldBinding binding, InputStream in, OutputStream out) throws InterruptedException {
        StdioDrain streams = new StdioDrain(in, out);
        McpSyncServer mcp =
                build(McpServer.sync(new StdioServerTransportProvider(MAPPER, streams.in, streams.out)), binding);
        try {
            streams.awaitEnd();
        } finally {
            mcp.closeGracefully();
        }
    }

    /** The endpoint's URL ({@code http://127.0.0.1:PORT/mcp}). */
    public URI url() {
        return url;
    }

    /** The bearer token every request must carry. */
    public String token() {
        return token;
    }

    /** The MCP client configuration of Claude Code ({@code --mcp-config}) that reaches this server as {@code name}. */
    public String claudeMcpConfig(String name) {
        PyDict headers =
                PyDict.builder().put("Authorization", "Bearer " + token).build();
        PyDict server = PyDict.builder()
                .put("type", "http")
                .put("url", url.toString())
                .put("headers", headers)
                .build();
        return PyJson.dumps(PyDict.builder()
                .put("mcpServers", PyDict.builder().put(name, server).build())
                .build());
    }

    @Override
    public void close() {
        mcp.closeGracefully();
        jetty.close();
    }

    // ---------------------------------------------------------------- the MCP server over any transport

    private static McpSyncServer build(McpServer.SyncSpecification<?> spec, WorldBinding binding) {
        Object lock = new Object();
        List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>();
        for (ToolSpec t : binding.tools()) {
            McpSchema.Tool tool = McpSchema.Tool.builder(t.name(), schema(t.parameters()))
                    .description(t.description())
                    .build();
            tools.add(McpServerFeatures.SyncToolSpecification.builder()
                    .tool(tool)
                    .callHandler((exchange, request) -> {
                        PyDict args = arguments(request.arguments());
                        ToolResult r;
                        synchronized (lock) {
                            r = binding.call(request.name(), args);
                        }
                        return McpSchema.CallToolResult.builder()
                                .content(List.of(McpSchema.TextContent.builder(r.content())
                                        .build()))
                                .isError(r.error())
                                .build();
                    })
                    .build());
        }
        // Handlers run on the transport's thread (both transports block anyway): over stdio that is the one reader
        // thread, so calls run in the order the client sent them, without a hop to another scheduler per call.
        return spec.immediateExecution(true)
                .serverInfo("brokkr", version())
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .validateToolInputs(false)
                .strictToolNameValidation(false)
                .tools(tools)
                .build();
    }

    /** A tool's JSON-schema parameters as the SDK carries them (insertion order kept); an object schema when none. */
    static Map<String, Object> schema(PyDict parameters) {
        if (parameters == null)
            return new LinkedHashMap<>(Map.of("type", "object", "properties", new LinkedHashMap<>()));
        try {
            return JACKSON.readValue(PyJson.dumps(parameters), MAP);
        } catch (IOException e) {
            throw new IllegalArgumentException("a tool schema that is not JSON: " + e.getMessage(), e);
        }
    }

    /** The client's arguments as the world's value: the JSON text the client sent, parsed as any tool call's. */
    static PyDict arguments(Map<String, Object> arguments) {
        if (arguments == null || arguments.isEmpty()) return PyDict.empty();
        try {
            Value v = Json.parse(JACKSON.writeValueAsString(arguments));
            return (PyDict) v;
        } catch (IOException e) {
            throw new IllegalArgumentException("arguments that are not JSON: " + e.getMessage(), e);
        }
    }

    private static String version() {
        String v = WorldMcpServer.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
