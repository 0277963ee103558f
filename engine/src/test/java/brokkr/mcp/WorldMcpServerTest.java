package brokkr.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.ToolResult;
import brokkr.conversation.ToolSpec;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The in-process server over streamable HTTP, driven by the MCP SDK's own client: the binding's schemas reach
 * {@code tools/list} as given, each call reaches the binding in order with the client's arguments and answers with
 * its text and error flag, and a client without the bearer token (or with another) is refused.
 */
class WorldMcpServerTest {
    static final PyDict SCHEMA = (PyDict) Json.parse(
            "{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\",\"description\":\"how much\"},"
                    + "\"note\":{\"type\":\"string\"}},\"required\":[\"amount\"]}");

    /** A counter the test owns: the server keeps no world of its own. */
    static final class Counter implements WorldBinding {
        long value;
        final List<String> calls = new ArrayList<>();

        @Override
        public List<ToolSpec> tools() {
            return List.of(new ToolSpec("add", "Adds amount to the counter.", SCHEMA));
        }

        @Override
        public synchronized ToolResult call(String tool, PyDict arguments) {
            calls.add(tool + PyJson.dumps(arguments));
            if (!(arguments.get("amount") instanceof brokkr.value.PyInt n))
                return ToolResult.error("amount must be an integer");
            value += n.longValue();
            return ToolResult.ok("counter=" + value);
        }
    }

    static Counter counter;
    static WorldMcpServer server;
    static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        counter = new Counter();
        server = WorldMcpServer.startHttp(counter, brokkr.http.LoopbackHttp.newToken());
        client = client(server.token());
        client.initialize();
    }

    @AfterAll
    static void stop() {
        if (client != null) client.closeGracefully();
        if (server != null) server.close();
    }

    static McpSyncClient client(String token) {
        URI u = server.url();
        HttpClientStreamableHttpTransport.Builder b = HttpClientStreamableHttpTransport.builder(
                        "http://" + u.getHost() + ":" + u.getPort())
                .endpoint(WorldMcpServer.ENDPOINT);
        if (token != null)
            b.httpRequestCustomizer((rb, method, uri, body, ctx) -> rb.header("Authorization", "Bearer " + token));
        return McpClient.sync(b.build()).requestTimeout(Duration.ofSeconds(20)).build();
    }

    @Test
    void listsTheBindingsToolsWithTheirSchemas() {
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertEquals(1, tools.size());
        assertEquals("add", tools.getFirst().name());
        assertEquals("Adds amount to the counter.", tools.getFirst().description());
        assertEquals(
                PyJson.dumps(SCHEMA),
                PyJson.dumps(Json.parse(json(tools.getFirst().inputSchema()))));
    }

    @Test
    void callsReachTheBindingAndAnswerWithItsTextAndErrorFlag() {
        long before = counter.value;
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("amount", 2);
        args.put("note", "é \"q\"");
        McpSchema.CallToolResult ok = client.callTool(new McpSchema.CallToolRequest("add", args));
        assertEquals("counter=" + (before + 2), text(ok));
        assertFalse(ok.isError());
        assertEquals("add{\"amount\": 2, \"note\": \"\\u00e9 \\\"q\\\"\"}", counter.calls.getLast());
        // Malformed arguments reach the binding (the SDK's schema validation is off): its own error text answers.
        McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("add", Map.of("amount", "two")));
        assertTrue(bad.isError());
        assertEquals("amount must be an integer", text(bad));
        assertEquals(before + 2, counter.value);
    }

    @Test
    void aClientWithoutTheTokenOrWithAnotherIsRefused() throws Exception {
        for (String token : new String[] {null, "not-the-token"}) {
            McpSyncClient c = client(token);
            assertThrows(RuntimeException.class, c::initialize);
            c.close();
        }
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(server.url())
                                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(401, r.statusCode());
        assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(null));
        assertFalse(r.body().contains(server.token()));
    }

    /** The status of a raw HTTP/1.1 POST with the right token and the given {@code Host} and {@code Origin} (null: none). */
    static int statusOf(String host, String origin) throws Exception {
        try (java.net.Socket socket =
                new java.net.Socket("127.0.0.1", server.url().getPort())) {
            String body = "{}";
            String req = "POST " + WorldMcpServer.ENDPOINT + " HTTP/1.1\r\nHost: " + host + "\r\n"
                    + (origin == null ? "" : "Origin: " + origin + "\r\n")
                    + "Authorization: Bearer " + server.token() + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n" + body;
            socket.getOutputStream().write(req.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(
                            socket.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))
                    .readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    /**
     * DNS rebinding: a page of another site whose name was rebound to 127.0.0.1 sends that name as its Host and its
     * own Origin; even with the token such a request is refused (403), while this machine's own Host and Origin pass
     * through to the MCP layer (which answers the empty body with a client error, not 403).
     */
    @Test
    void aForeignOriginOrHostIsRefusedEvenWithTheToken() throws Exception {
        int port = server.url().getPort();
        assertEquals(403, statusOf("evil.example:" + port, null));
        assertEquals(403, statusOf("127.0.0.1:" + port, "http://evil.example"));
        assertEquals(403, statusOf("127.0.0.1:" + port, "null"));
        for (String[] ok : new String[][] {
            {"127.0.0.1:" + port, null}, {"localhost:" + port, "http://localhost:8888"}, {"[::1]:" + port, null}
        }) {
            int status = statusOf(ok[0], ok[1]);
            assertTrue(status != 403 && status != 401, ok[0] + " " + ok[1] + ": " + status);
        }
    }

    @Test
    void aHostBeyondLoopbackIsRefusedUnlessAskedFor() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> WorldMcpServer.startHttp(
                        new Counter(), "t", new brokkr.http.LoopbackHttp.Options("0.0.0.0", 0, false)));
        assertTrue(e.getMessage().contains("not a loopback address"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WorldMcpServer.startHttp(new Counter(), " "));
    }

    /**
     * Over stdio, a client that writes its requests and closes its end at once still gets every answer, the calls
     * made in the order sent (the input's end is held back until each request read is answered).
     */
    @Test
    void stdioAnswersEveryRequestReadBeforeItsInputEnds() throws Exception {
        Counter own = new Counter();
        String in = String.join(
                "\n",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"amount\":5}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"amount\":-2}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}",
                "");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        WorldMcpServer.serveStdio(
                own, new java.io.ByteArrayInputStream(in.getBytes(java.nio.charset.StandardCharsets.UTF_8)), out);
        List<String> lines =
                out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        Map<Long, PyDict> byId = new LinkedHashMap<>();
        for (String l : lines) {
            PyDict d = (PyDict) Json.parse(l);
            byId.put(((brokkr.value.PyInt) d.get("id")).longValue(), d);
        }
        assertEquals(List.of(1L, 2L, 3L, 4L), byId.keySet().stream().sorted().toList(), lines.toString());
        assertEquals(List.of("add{\"amount\": 5}", "add{\"amount\": -2}"), own.calls);
        assertEquals(
                "counter=3",
                byId.get(3L)
                        .get("result")
                        .asDict()
                        .get("content")
                        .asList()
                        .get(0)
                        .asDict()
                        .get("text")
                        .asStr());
    }

    static String text(McpSchema.CallToolResult r) {
        assertEquals(1, r.content().size());
        return ((McpSchema.TextContent) r.content().getFirst()).text();
    }

    static String json(Object o) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(o);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
