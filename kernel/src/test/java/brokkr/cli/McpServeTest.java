package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ToolSpec;
import brokkr.experiment.Registry;
import brokkr.magics.Session;
import brokkr.magics.view.CallOutcome;
import brokkr.mcp.ForkBinding;
import brokkr.mcp.WorldMcpServer;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code ./brokkr mcp serve} driven by the MCP SDK's own client: over stdio (a real {@code brokkr mcp serve --stdio}
 * process) and over streamable HTTP (a real {@code --port 0} process with its printed token; bfcl-multi-turn through
 * the in-process server), every tool result is byte for byte the content and error flag {@code %call} shows for the
 * same call on the same fork, malformed arguments included; tools/list carries the domain's schemas; brokkr_world
 * and brokkr_grade answer; a client without the token is refused; bad arguments are usage errors (exit 2).
 */
class McpServeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One call as %call is given it: the tool and its JSON-object arguments. */
    record Call(String tool, String json) {}

    static List<String> serveCommand(String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "mcp",
                "serve"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The calls through %call on a fresh fork of {@code task}, as each CallOutcome. */
    static List<CallOutcome> viaCall(String domain, String task, List<Call> calls) throws Exception {
        Session s = new Session();
        s.domain(domain);
        s.fork(task);
        List<CallOutcome> out = new ArrayList<>();
        for (Call c : calls) out.add(s.call(c.tool(), c.json()));
        return out;
    }

    static McpSchema.CallToolResult viaMcp(McpSyncClient client, Call c) throws Exception {
        Map<String, Object> args = JSON.readValue(c.json(), new TypeReference<LinkedHashMap<String, Object>>() {});
        return client.callTool(new McpSchema.CallToolRequest(c.tool(), args));
    }

    static String text(McpSchema.CallToolResult r) {
        assertEquals(1, r.content().size(), r.toString());
        return ((McpSchema.TextContent) r.content().getFirst()).text();
    }

    /** Each MCP result is exactly %call's content and error flag, call by call. */
    static void assertSameAsCall(McpSyncClient client, String domain, String task, List<Call> calls) throws Exception {
        List<CallOutcome> expected = viaCall(domain, task, calls);
        for (int i = 0; i < calls.size(); i++) {
            McpSchema.CallToolResult r = viaMcp(client, calls.get(i));
            assertEquals(expected.get(i).content(), text(r), calls.get(i).toString());
            assertEquals(expected.get(i).error(), r.isError(), calls.get(i).toString());
        }
    }

    /** tools/list: the domain's tools with their schemas exactly as its forks carry them, then Brokkr's two. */
    static void assertSchemas(McpSyncClient client, String domain, String task) throws Exception {
        List<ToolSpec> domainTools = Registry.process()
                .benchmark(domain)
                .exploration()
                .orElseThrow()
                .fork(task)
                .toolSpecs();
        List<McpSchema.Tool> listed = client.listTools().tools();
        assertEquals(domainTools.size() + 2, listed.size());
        for (int i = 0; i < domainTools.size(); i++) {
            ToolSpec t = domainTools.get(i);
            assertEquals(t.name(), listed.get(i).name());
            assertEquals(t.description(), listed.get(i).description());
            assertEquals(
                    PyJson.dumps(t.parameters()),
                    PyJson.dumps(
                            Json.parse(JSON.writeValueAsString(listed.get(i).inputSchema()))),
                    t.name());
        }
        assertEquals(ForkBinding.WORLD, listed.get(domainTools.size()).name());
        assertEquals(ForkBinding.GRADE, listed.get(domainTools.size() + 1).name());
    }

    /** tau2-retail task 0 over a real stdio process: its gold calls, malformed ones, the world and the grade. */
    @Test
    void stdioProcessAnswersAsCallDoesOnTau2() throws Exception {
        Session s = new Session();
        s.domain("tau2-retail");
        List<Call> calls = new ArrayList<>();
        for (String g : s.task("0").goldActions()) {
            int p = g.indexOf('(');
            calls.add(new Call(g.substring(0, p), g.substring(p + 1, g.length() - 1)));
        }
        assertFalse(calls.isEmpty());
        // Malformed arguments: a required one missing, an unexpected one, a wrong type; upstream's own error texts.
        calls.add(1, new Call("get_user_details", "{}"));
        calls.add(2, new Call("get_order_details", "{\"order_id\": \"#W0000000\", \"extra\": 1}"));
        calls.add(3, new Call("calculate", "{\"expression\": 7}"));
        List<String> cmd = serveCommand("--domain", "tau2-retail", "--task", "0", "--stdio");
        ServerParameters params = ServerParameters.builder(cmd.getFirst())
                .args(cmd.subList(1, cmd.size()))
                .build();
        StringBuilder stderr = new StringBuilder();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(JSON));
        transport.setStdErrorHandler(line -> {
            synchronized (stderr) {
                stderr.append(line).append('\n');
            }
        });
        McpSyncClient client =
                McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
        try {
            client.initialize();
            assertSchemas(client, "tau2-retail", "0");
            assertSameAsCall(client, "tau2-retail", "0", calls);
            PyDict world = (PyDict)
                    Json.parse(text(client.callTool(new McpSchema.CallToolRequest(ForkBinding.WORLD, Map.of()))));
            assertEquals(Value.of(calls.size()), world.get("calls"));
            assertFalse(world.get("changes_since_fork").asList().isEmpty(), world.toString());
            McpSchema.CallToolResult graded =
                    client.callTool(new McpSchema.CallToolRequest(ForkBinding.GRADE, Map.of("answer", "###STOP###")));
            assertFalse(graded.isError(), text(graded));
            PyDict grade = (PyDict) Json.parse(text(graded));
            assertEquals(Value.of(calls.size()), grade.get("calls_replayed"));
            assertTrue(
                    grade.get("checks").asList().stream()
                            .anyMatch(c -> c.asDict().get("check").asStr().startsWith("DB")
                                    && c.asDict().get("passed").equals(Value.of(true))),
                    grade.toString());
        } finally {
            client.closeGracefully();
        }
        synchronized (stderr) {
            assertTrue(stderr.toString().contains("serving tau2-retail task 0"), stderr.toString());
        }
    }

    /**
     * The example domain over a real HTTP process: the token it generated and printed admits the SDK's client, whose
     * results are %call's; brokkr_grade grades the counter; a client without the token, or with another, is refused.
     */
    @Test
    void httpProcessWithItsPrintedTokenAnswersAsCallDoesAndRefusesOthers() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(serveCommand("--domain", "example", "--task", "3", "--port", "0"))
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("BROKKR_MCP_TOKEN");
        Process p = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String serving = out.readLine(), tokenLine = out.readLine();
            assertTrue(serving != null && serving.contains(" at http://127.0.0.1:"), serving);
            URI url = URI.create(serving.substring(serving.indexOf(" at ") + 4).strip());
            String token = tokenLine.substring("token: ".length(), tokenLine.indexOf("  "));
            McpSyncClient client = http(url, token);
            try {
                client.initialize();
                assertSchemas(client, "example", "3");
                List<Call> calls = List.of(
                        new Call("add", "{\"amount\": 1}"),
                        new Call("add", "{\"amount\": \"x\"}"),
                        new Call("add", "{\"amount\": 2}"));
                assertSameAsCall(client, "example", "3", calls);
                PyDict world = (PyDict) Json.parse(
                        text(client.callTool(new McpSchema.CallToolRequest(ForkBinding.WORLD, Map.of("world", true)))));
                assertEquals(Value.of(3), world.get("world").asDict().get("counter"));
                PyDict grade = (PyDict)
                        Json.parse(text(client.callTool(new McpSchema.CallToolRequest(ForkBinding.GRADE, Map.of()))));
                assertEquals(Value.of(1.0), grade.get("reward"), grade.toString());
            } finally {
                client.closeGracefully();
            }
            for (String other : new String[] {null, token + "x"}) {
                McpSyncClient refused = http(url, other);
                assertThrows(RuntimeException.class, refused::initialize);
                refused.close();
            }
        } finally {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
        }
    }

    /** bfcl-multi-turn through the in-process server (the one the claude-code harness uses) over HTTP. */
    @Test
    void bfclMultiTurnInProcessOverHttpAnswersAsCallDoes() throws Exception {
        ForkBinding binding = new ForkBinding(Registry.process().benchmark("bfcl-multi-turn"), "multi_turn_base_50");
        try (WorldMcpServer server = WorldMcpServer.startHttp(binding, brokkr.http.LoopbackHttp.newToken())) {
            McpSyncClient client = http(server.url(), server.token());
            try {
                client.initialize();
                assertSchemas(client, "bfcl-multi-turn", "multi_turn_base_50");
                // The real schemas, as a function-calling model is offered them, not an open {"type": "object"}.
                McpSchema.Tool lock = client.listTools().tools().stream()
                        .filter(t -> t.name().equals("lockDoors"))
                        .findFirst()
                        .orElseThrow();
                PyDict schema =
                        Json.parse(JSON.writeValueAsString(lock.inputSchema())).asDict();
                assertTrue(schema.get("properties").asDict().containsKey("unlock"), PyJson.dumps(schema));
                assertTrue(schema.get("properties").asDict().containsKey("door"), PyJson.dumps(schema));
                assertTrue(PyJson.dumps(schema.get("required")).contains("\"unlock\""), PyJson.dumps(schema));
                assertSameAsCall(
                        client,
                        "bfcl-multi-turn",
                        "multi_turn_base_50",
                        List.of(
                                new Call("lockDoors", "{\"unlock\": true, \"door\": [\"driver\"]}"),
                                new Call("lockDoors", "{\"unlock\": true, \"door\": [\"passenger\", \"trunk\"]}"),
                                new Call("lockDoors", "{\"unlock\": 3}")));
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void badArgumentsAreUsageErrors() {
        for (List<String> argv : List.of(
                List.of("mcp"),
                List.of("mcp", "start"),
                List.of("mcp", "serve", "--task", "1"),
                List.of("mcp", "serve", "--domain", "example"),
                List.of("mcp", "serve", "--domain", "example", "--task", "1", "--stdio", "--port", "5"),
                List.of("mcp", "serve", "--domain", "example", "--task", "1", "--port", "x"),
                List.of("mcp", "serve", "--domain", "example", "--task", "1", "--bogus"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int code = Main.run(argv, new PrintStream(out, true), new PrintStream(err, true));
            String e = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, code, argv + ": " + e);
            assertTrue(e.contains("usage: ./brokkr mcp serve --domain D --task ID"), argv + ": " + e);
        }
        // Well formed, but naming what cannot be served: the reason, exit 2.
        for (List<String> argv : List.of(
                List.of("mcp", "serve", "--domain", "nope", "--task", "1"),
                List.of("mcp", "serve", "--domain", "example", "--task", "99"),
                List.of("mcp", "serve", "--domain", "example", "--task", "1", "--host", "0.0.0.0"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(argv, new PrintStream(new ByteArrayOutputStream(), true), new PrintStream(err, true));
            assertEquals(2, code, argv + ": " + err.toString(StandardCharsets.UTF_8));
        }
    }

    static McpSyncClient http(URI url, String token) {
        HttpClientStreamableHttpTransport.Builder b = HttpClientStreamableHttpTransport.builder(
                        "http://" + url.getHost() + ":" + url.getPort())
                .endpoint(url.getPath());
        if (token != null)
            b.httpRequestCustomizer((rb, method, uri, body, ctx) -> rb.header("Authorization", "Bearer " + token));
        return McpClient.sync(b.build()).requestTimeout(Duration.ofSeconds(60)).build();
    }
}
