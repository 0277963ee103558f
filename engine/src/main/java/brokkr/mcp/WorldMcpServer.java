package brokkr.mcp;

import brokkr.agent.ToolResult;
import brokkr.conversation.ToolSpec;
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
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

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

    /**
     * Where the HTTP server listens: {@code host} (a name or address) and {@code port} (0: any free one).
     * A host that is not a loopback address is refused unless {@code allowNonLoopback}.
     */
    public record HttpOptions(String host, int port, boolean allowNonLoopback) {
        public static final HttpOptions LOOPBACK = new HttpOptions("127.0.0.1", 0, false);

        public HttpOptions {
            Objects.requireNonNull(host, "host");
            if (port < 0 || port > 65535) throw new IllegalArgumentException("port " + port + " is not 0..65535");
        }
    }

    private final McpSyncServer mcp;
    private final Server jetty;
    private final URI url;
    private final String token;

    private WorldMcpServer(McpSyncServer mcp, Server jetty, URI url, String token) {
        this.mcp = mcp;
        this.jetty = jetty;
        this.url = url;
        this.token = token;
    }

    /** A fresh bearer token: 32 random bytes, URL-safe base64. */
    public static String newToken() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Serves {@code binding} over streamable HTTP on a free loopback port; requests must carry {@code token}. */
    public static WorldMcpServer startHttp(WorldBinding binding, String token) throws IOException {
        return startHttp(binding, token, HttpOptions.LOOPBACK);
    }

    /**
     * Serves {@code binding} over streamable HTTP at {@code options}; every request must carry
     * {@code Authorization: Bearer TOKEN} (401 otherwise, before the MCP layer sees it). IllegalArgumentException for a
     * blank token or a host that is not loopback without {@code allowNonLoopback}; IOException when it cannot listen.
     */
    public static WorldMcpServer startHttp(WorldBinding binding, String token, HttpOptions options) throws IOException {
        if (token == null || token.isBlank()) throw new IllegalArgumentException("an MCP HTTP server needs a token");
        InetAddress address = address(options.host());
        if (!address.isLoopbackAddress() && !options.allowNonLoopback()) {
            throw new IllegalArgumentException("host " + options.host()
                    + " is not a loopback address: serving a world beyond this machine must be asked for explicitly");
        }
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(MAPPER)
                .mcpEndpoint(ENDPOINT)
                .build();
        McpSyncServer mcp = build(McpServer.sync(transport), binding);

        // A few threads suffice: one client, calls made one at a time (a default pool starts 8 and grows to 200).
        QueuedThreadPool pool = new QueuedThreadPool(16, 2);
        pool.setName("brokkr-mcp-http");
        pool.setDaemon(true);
        Server jetty = new Server(pool);
        ServerConnector connector = new ServerConnector(jetty, 1, 1);
        connector.setHost(address.getHostAddress());
        connector.setPort(options.port());
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), ENDPOINT);
        jetty.setHandler(new BearerAuth(token, address.isLoopbackAddress(), context));
        try {
            jetty.start();
        } catch (Exception e) {
            mcp.close();
            try {
                jetty.stop();
            } catch (Exception ignored) {
                // it did not start; nothing to stop
            }
            throw new IOException(
                    "cannot serve MCP on " + options.host() + ":" + options.port() + ": " + e.getMessage(), e);
        }
        String host = address.getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        URI url = URI.create("http://" + host + ":" + connector.getLocalPort() + ENDPOINT);
        return new WorldMcpServer(mcp, jetty, url, token);
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
        try {
            jetty.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the MCP HTTP server: " + e.getMessage(), e);
        }
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

    private static InetAddress address(String host) throws IOException {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "'");
        }
    }

    /**
     * Whether a request's {@code Host} and {@code Origin} headers say it comes from this machine's own pages, as the
     * MCP specification's streamable HTTP transport asks (DNS-rebinding protection: "servers MUST validate the Origin
     * header"): a web page of another site that a rebound DNS name points at this loopback server sends that name as
     * its {@code Host} and its own {@code Origin}. On a loopback server the {@code Host} must name a loopback address
     * ({@code localhost}, {@code 127.x.x.x}, {@code [::1]}); an {@code Origin}, when sent (MCP clients that are not
     * browsers send none), must name a loopback host or the {@code Host} itself.
     */
    static boolean sameMachine(String host, String origin, boolean loopbackServer) {
        String hostName = host == null ? null : hostName(host);
        if (loopbackServer && (hostName == null || !loopbackName(hostName))) return false;
        if (origin == null) return true;
        String originHost;
        try {
            originHost = URI.create(origin.strip()).getHost();
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (originHost == null) return false; // "null": a sandboxed or file page
        if (originHost.startsWith("[") && originHost.endsWith("]"))
            originHost = originHost.substring(1, originHost.length() - 1);
        return loopbackName(originHost) || originHost.equalsIgnoreCase(hostName);
    }

    /** The name of a {@code Host} header's value: no port, an IPv6 literal without its brackets. */
    private static String hostName(String host) {
        String h = host.strip();
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? null : h.substring(1, end);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private static boolean loopbackName(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        return n.equals("localhost") || n.equals("::1") || n.matches("127(\\.\\d{1,3}){3}");
    }

    /**
     * Refuses, with 403, a request from another machine's page ({@link #sameMachine}: a foreign {@code Origin} or
     * {@code Host}), then, with 401 and {@code WWW-Authenticate: Bearer}, every request whose {@code Authorization}
     * is not {@code Bearer TOKEN} (compared in constant time). The token itself is never logged or echoed.
     */
    private static final class BearerAuth extends Handler.Wrapper {
        private final byte[] expected;
        private final boolean loopback;

        BearerAuth(String token, boolean loopback, Handler next) {
            super(next);
            this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
            this.loopback = loopback;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            if (!sameMachine(
                    request.getHeaders().get(HttpHeader.HOST),
                    request.getHeaders().get(HttpHeader.ORIGIN),
                    loopback)) {
                response.setStatus(HttpStatus.FORBIDDEN_403);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
                response.write(
                        true,
                        java.nio.ByteBuffer.wrap(
                                "refused: the request's Origin or Host is not this machine's (DNS-rebinding protection)\n"
                                        .getBytes(StandardCharsets.UTF_8)),
                        callback);
                return true;
            }
            String given = request.getHeaders().get(HttpHeader.AUTHORIZATION);
            if (given == null || !MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8))) {
                response.setStatus(HttpStatus.UNAUTHORIZED_401);
                response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
                response.write(
                        true,
                        java.nio.ByteBuffer.wrap("a bearer token is required (Authorization: Bearer TOKEN)\n"
                                .getBytes(StandardCharsets.UTF_8)),
                        callback);
                return true;
            }
            return super.handle(request, response, callback);
        }
    }
}
