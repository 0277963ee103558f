package brokkr.bench;

import brokkr.cli.Main;
import brokkr.experiment.Registry;
import brokkr.magics.Session;
import brokkr.mcp.ForkBinding;
import brokkr.mcp.WorldMcpServer;
import brokkr.value.Json;
import brokkr.value.PyDict;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./brokkr bench mcp}: the cost of one tool call through {@code ./brokkr mcp serve} against {@code %call} on
 * the same fork, side by side in one JVM, rounds interleaved: {@code %call} (the magics' session, world diff
 * included), the binding alone ({@link ForkBinding#call}, no transport), the MCP SDK's client over streamable HTTP
 * to the in-process server (what the claude-code harness uses), and over stdio to a real {@code mcp serve --stdio}
 * process. Per path the median over rounds of wall time per call and, for the in-process paths, the process's CPU
 * time per call (client and server threads alike); the MCP paths' overhead is their time less {@code %call}'s.
 *
 * <p>Arguments: {@code --domain D} (default tau2-retail), {@code --task ID} (default 0), {@code --tool T} and
 * {@code --args JSON} (default calculate {"expression": "(2 + 3) * 4"}), {@code --calls N} per round (default
 * 1000), {@code --rounds R} (default 5).
 */
public final class McpBench {
    private McpBench() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        System.exit(run(Arrays.asList(args), System.out));
    }

    private interface Path0 {
        void call() throws Exception;
    }

    public static int run(List<String> args, PrintStream out) throws Exception {
        String domain = "tau2-retail", task = "0", tool = "calculate", json = "{\"expression\": \"(2 + 3) * 4\"}";
        int calls = 1000, rounds = 5;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i), v = i + 1 < args.size() ? args.get(i + 1) : null;
            if (v == null) throw new IllegalArgumentException(a + " needs a value");
            switch (a) {
                case "--domain" -> domain = v;
                case "--task" -> task = v;
                case "--tool" -> tool = v;
                case "--args" -> json = v;
                case "--calls" -> calls = positive(a, v);
                case "--rounds" -> rounds = positive(a, v);
                default ->
                    throw new IllegalArgumentException("unknown argument " + a
                            + " (expected --domain D, --task ID, --tool T, --args JSON, --calls N or --rounds R)");
            }
            i++;
        }
        String t = tool, j = json;
        PyDict pyArgs = (PyDict) Json.parse(json);
        Map<String, Object> mcpArgs = JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() {});

        Session session = new Session();
        session.domain(domain);
        session.fork(task);
        ForkBinding direct = new ForkBinding(Registry.process().benchmark(domain), task);
        ForkBinding served = new ForkBinding(Registry.process().benchmark(domain), task);
        try (WorldMcpServer http = WorldMcpServer.startHttp(served, brokkr.http.LoopbackHttp.newToken())) {
            McpSyncClient httpClient = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://"
                                    + http.url().getHost() + ":" + http.url().getPort())
                            .endpoint(WorldMcpServer.ENDPOINT)
                            .httpRequestCustomizer((rb, method, uri, body, ctx) ->
                                    rb.header("Authorization", "Bearer " + http.token()))
                            .build())
                    .requestTimeout(Duration.ofSeconds(60))
                    .build();
            List<String> cmd = List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "--sun-misc-unsafe-memory-access=allow",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "mcp",
                    "serve",
                    "--domain",
                    domain,
                    "--task",
                    task,
                    "--stdio");
            StdioClientTransport stdio = new StdioClientTransport(
                    ServerParameters.builder(cmd.getFirst())
                            .args(cmd.subList(1, cmd.size()))
                            .build(),
                    new JacksonMcpJsonMapper(JSON));
            stdio.setStdErrorHandler(line -> {});
            McpSyncClient stdioClient =
                    McpClient.sync(stdio).requestTimeout(Duration.ofSeconds(60)).build();
            try {
                httpClient.initialize();
                stdioClient.initialize();
                McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(t, mcpArgs);
                Map<String, Path0> paths = new LinkedHashMap<>();
                paths.put("%call", () -> session.call(t, j));
                paths.put("binding alone", () -> direct.call(t, pyArgs));
                paths.put("MCP over HTTP (in-process server)", () -> httpClient.callTool(request));
                paths.put("MCP over stdio (mcp serve process)", () -> stdioClient.callTool(request));
                OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
                Map<String, List<Double>> wall = new LinkedHashMap<>(), cpu = new LinkedHashMap<>();
                for (String p : paths.keySet()) {
                    wall.put(p, new ArrayList<>());
                    cpu.put(p, new ArrayList<>());
                }
                for (int r = -1; r < rounds; r++) { // round -1 warms every path up
                    for (Map.Entry<String, Path0> e : paths.entrySet()) {
                        long c0 = os.getProcessCpuTime(), t0 = System.nanoTime();
                        for (int k = 0; k < calls; k++) e.getValue().call();
                        long dt = System.nanoTime() - t0, dc = os.getProcessCpuTime() - c0;
                        if (r < 0) continue;
                        wall.get(e.getKey()).add(dt / 1e3 / calls);
                        cpu.get(e.getKey()).add(dc / 1e3 / calls);
                    }
                }
                double base = median(wall.get("%call"));
                out.printf(
                        Locale.ROOT,
                        "%s task %s, %s %s: %d calls x %d rounds, load average %.2f%n",
                        domain,
                        task,
                        t,
                        j,
                        calls,
                        rounds,
                        os.getSystemLoadAverage());
                out.printf(Locale.ROOT, "%-36s %12s %14s %16s%n", "path", "us/call", "over %call", "CPU us/call");
                for (String p : paths.keySet()) {
                    double w = median(wall.get(p));
                    boolean inProcess = !p.contains("stdio");
                    out.printf(
                            Locale.ROOT,
                            "%-36s %12.1f %14s %16s%n",
                            p,
                            w,
                            p.equals("%call") ? "" : String.format(Locale.ROOT, "%+.1f", w - base),
                            inProcess
                                    ? String.format(Locale.ROOT, "%.1f", median(cpu.get(p)))
                                    : "(client " + String.format(Locale.ROOT, "%.1f", median(cpu.get(p))) + ")");
                }
            } finally {
                httpClient.closeGracefully();
                stdioClient.closeGracefully();
            }
        }
        return 0;
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static int positive(String option, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) return n;
        } catch (NumberFormatException e) {
            // worded below
        }
        throw new IllegalArgumentException(option + " takes a positive integer, not '" + v + "'");
    }
}
