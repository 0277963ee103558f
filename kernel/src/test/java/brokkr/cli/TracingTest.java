package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.eval.Attempt;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.ProgressListener;
import brokkr.experiment.ProviderModels;
import brokkr.experiment.Registry;
import brokkr.experiment.StoreLocation;
import brokkr.magics.MagicRegistry;
import brokkr.magics.MagicUsageException;
import brokkr.magics.Session;
import brokkr.magics.view.RunView;
import brokkr.provider.OpenAiChat;
import brokkr.provider.testing.ScriptedModelServer;
import brokkr.provider.testing.ScriptedModelServer.Reply;
import brokkr.run.Cancellation;
import brokkr.run.CellTrace;
import brokkr.telemetry.GenAiTrace;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenTelemetry GenAI traces of real runs: the SDK's in-memory exporter sees the span tree of a tau2 episode
 * and of BFCL tasks; the CLI's {@code --otel} sends the same spans to an OTLP/HTTP receiver on loopback (the
 * protobuf decoded here) and to a JSON-lines file; traces are off by default; no span holds an API key.
 */
class TracingTest {
    @TempDir
    Path tmp;

    private static final AttributeKey<String> OPERATION = GenAiTrace.OPERATION;

    /** Runs {@code yaml} with every span to an in-memory exporter; the spans and the attempts. */
    private record Traced(List<SpanData> spans, List<Attempt> attempts) {
        List<SpanData> op(String name) {
            return spans.stream()
                    .filter(s -> name.equals(s.getAttributes().get(OPERATION)))
                    .toList();
        }

        List<SpanData> children(SpanData parent) {
            return spans.stream()
                    .filter(s -> s.getParentSpanId().equals(parent.getSpanId()))
                    .toList();
        }
    }

    private Traced run(String yaml, Registry registry, boolean content) throws Exception {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        ExperimentSpec spec = ExperimentSpec.parse(yaml, true, "test", "traced", tmp);
        Path dir = tmp.resolve("run-" + System.nanoTime());
        List<SpanData> spans;
        try (Tracing tracing = Tracing.of(SimpleSpanProcessor.create(exporter), content, "brokkr-test", "memory")) {
            Experiments.Result r = Experiments.run(
                    spec,
                    StoreLocation.of(dir),
                    registry,
                    ProgressListener.NONE,
                    new Cancellation(),
                    false,
                    tracing.trace());
            assertTrue(r.complete(), r.summary());
            // Read before the provider's shutdown, which empties the in-memory exporter.
            spans = List.copyOf(exporter.getFinishedSpanItems());
        }
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            return new Traced(spans, q.attempts(true));
        }
    }

    @Test
    void aTau2EpisodeIsOneInvokeAgentSpanOverItsChatAndToolSpans() throws Exception {
        Traced t = run("""
                domain: tau2-retail
                tasks: ["0"]
                candidates: [{id: gold, provider: scripted, model: gold}]
                progress: false
                """, Registry.process(), false);
        Attempt a = t.attempts().getFirst();
        List<SpanData> roots = t.op("invoke_agent");
        assertEquals(1, roots.size(), "one episode, one invoke_agent span");
        SpanData root = roots.getFirst();
        assertFalse(root.getParentSpanContext().isValid(), "the episode's span is the trace's root");
        assertEquals("invoke_agent gold", root.getName());
        assertEquals("gold", root.getAttributes().get(GenAiTrace.AGENT_NAME));
        assertEquals(a.environmentId(), root.getAttributes().get(CellTrace.ENVIRONMENT_ID));
        assertEquals(a.agentId(), root.getAttributes().get(CellTrace.AGENT_ID));
        assertEquals("0", root.getAttributes().get(CellTrace.TASK));
        assertEquals("tau2-retail", root.getAttributes().get(CellTrace.BENCHMARK));
        assertEquals(1L, root.getAttributes().get(CellTrace.TRIAL));
        assertEquals("completed", root.getAttributes().get(CellTrace.STATUS));
        assertEquals(a.reward(), root.getAttributes().get(CellTrace.REWARD));
        assertEquals(1.0, a.reward(), "gold passes");

        // Every other span is the episode's child: the agent's and the simulated user's model calls, the tools.
        assertEquals(t.spans().size() - 1, t.children(root).size(), "a flat tree under the episode");
        for (SpanData s : t.spans()) assertEquals(root.getTraceId(), s.getTraceId());
        Map<String, Long> chatsByRole = t.op("chat").stream()
                .collect(Collectors.groupingBy(s -> s.getAttributes().get(GenAiTrace.ROLE), Collectors.counting()));
        assertEquals(a.evidence().counts().modelSteps(), chatsByRole.get("agent"), "one chat span per agent step");
        assertTrue(chatsByRole.getOrDefault("user", 0L) >= 1, "the user simulator's turns are chat spans too");
        for (SpanData c : t.op("chat")) {
            assertEquals("scripted", c.getAttributes().get(GenAiTrace.PROVIDER));
            assertNotNull(c.getAttributes().get(GenAiTrace.FINISH_REASONS));
            assertNotNull(c.getAttributes().get(GenAiTrace.INPUT_TOKENS));
            assertNull(c.getAttributes().get(GenAiTrace.INPUT_MESSAGES), "no prompt unless asked");
        }
        List<SpanData> tools = t.op("execute_tool");
        assertEquals(a.evidence().counts().toolCalls(), (long) tools.size(), "one execute_tool span per tool call");
        for (SpanData s : tools) {
            assertEquals("execute_tool " + s.getAttributes().get(GenAiTrace.TOOL_NAME), s.getName());
            assertTrue(s.getAttributes().get(GenAiTrace.TOOL_ARGUMENTS_SIZE) > 0, s.toString());
            assertNull(s.getAttributes().get(GenAiTrace.TOOL_ARGUMENTS), "no arguments unless asked");
        }
    }

    @Test
    void bfclTasksAreAnInvokeAgentSpanEachWithTheirModelCallAndToolCalls() throws Exception {
        Traced t = run("""
                domain: bfcl
                tasks: [simple_python_1, parallel_0, irrelevance_0]
                candidates: [{id: gold, provider: scripted, model: gold, action_space: tools}]
                progress: false
                """, Registry.process(), false);
        List<SpanData> roots = t.op("invoke_agent");
        assertEquals(3, roots.size());
        Map<String, SpanData> byTask = new HashMap<>();
        for (SpanData r : roots) byTask.put(r.getAttributes().get(CellTrace.TASK), r);
        for (Attempt a : t.attempts()) {
            SpanData root = byTask.get(a.taskId());
            assertNotNull(root, a.taskId());
            List<SpanData> kids = t.children(root);
            List<SpanData> chats = kids.stream()
                    .filter(s -> "chat".equals(s.getAttributes().get(OPERATION)))
                    .toList();
            List<SpanData> tools = kids.stream()
                    .filter(s -> "execute_tool".equals(s.getAttributes().get(OPERATION)))
                    .toList();
            assertEquals(1, chats.size(), a.taskId() + ": one model call");
            assertEquals(a.evidence().counts().toolCalls(), (long) tools.size(), a.taskId());
            List<String> reasons = chats.getFirst().getAttributes().get(GenAiTrace.FINISH_REASONS);
            assertEquals(List.of(tools.isEmpty() ? "stop" : "tool_calls"), reasons, a.taskId());
        }
        assertEquals(
                2,
                t.children(byTask.get("parallel_0")).stream()
                        .filter(s -> "execute_tool".equals(s.getAttributes().get(OPERATION)))
                        .count(),
                "parallel_0's two calls");
        assertEquals(
                t.spans().size(),
                roots.size()
                        + roots.stream().mapToInt(r -> t.children(r).size()).sum());
    }

    static final String KEY = "sk-otel-test-7f3a9c0e51";

    /** A model on loopback that echoes the key it was sent in its text and its tool call's arguments. */
    static ScriptedModelServer echoingModel() {
        return ScriptedModelServer.start(req -> {
            var d = req.chat();
            Message.Assistant answer = new Message.Assistant(
                    "my key is " + req.credential(),
                    List.of(new ToolCall(
                            "c1",
                            "calculate_triangle_area",
                            PyDict.of("base", 10, "height", 5, "unit", req.credential()))),
                    new Usage(120, 17));
            return Reply.json(OpenAiChat.encodeResponse(answer, d.model(), "chatcmpl-" + req.index()));
        });
    }

    @Test
    void aModelCallsSpanHasItsModelTokensAndFinishReasonAndNeverTheKeyEvenWithContent() throws Exception {
        try (ScriptedModelServer server = echoingModel()) {
            Map<String, String> env = new HashMap<>(server.openAiEnv());
            env.put("OPENAI_API_KEY", KEY);
            Registry registry = Registry.process().with(List.of(), List.of(new ProviderModels("openai", env) {}));
            Traced t = run("""
                    domain: bfcl
                    tasks: [simple_python_1]
                    candidates: [{id: m, provider: openai, model: echo-1, action_space: tools}]
                    progress: false
                    """, registry, true);
            assertEquals("Bearer " + KEY, server.requests().getFirst().credential(), "the key was sent");
            SpanData chat = t.op("chat").getFirst();
            assertEquals("chat echo-1", chat.getName());
            assertEquals("echo-1", chat.getAttributes().get(GenAiTrace.REQUEST_MODEL));
            assertEquals("openai", chat.getAttributes().get(GenAiTrace.PROVIDER));
            assertEquals(120L, chat.getAttributes().get(GenAiTrace.INPUT_TOKENS));
            assertEquals(17L, chat.getAttributes().get(GenAiTrace.OUTPUT_TOKENS));
            assertEquals(List.of("tool_calls"), chat.getAttributes().get(GenAiTrace.FINISH_REASONS));
            // Content was asked for: the prompt and the completion are there, the key is not.
            String in = chat.getAttributes().get(GenAiTrace.INPUT_MESSAGES);
            String outMessages = chat.getAttributes().get(GenAiTrace.OUTPUT_MESSAGES);
            assertTrue(in.contains("\"role\": \"user\""), in);
            assertTrue(outMessages.contains("my key is"), outMessages);
            SpanData tool = t.op("execute_tool").getFirst();
            assertEquals("calculate_triangle_area", tool.getAttributes().get(GenAiTrace.TOOL_NAME));
            assertNotNull(tool.getAttributes().get(GenAiTrace.TOOL_ARGUMENTS));
            assertEquals(3, t.spans().size(), "invoke_agent over one chat and one execute_tool: " + t.spans());
            for (SpanData s : t.spans()) {
                String all = s.getName() + s.getAttributes() + s.getResource().getAttributes() + s.getStatus();
                assertFalse(all.contains(KEY), "a span holds the key: " + s.getName());
                assertFalse(all.contains(KEY.substring(3)), "a span holds the key's body: " + s.getName());
            }
        }
    }

    @Test
    void offByDefaultAndOnByTheStandardEnvironment() {
        assertFalse(Tracing.open(null, false, Map.of()).on(), "no --otel, no environment: off");
        assertFalse(Tracing.open("off", false, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))
                .on());
        assertFalse(Tracing.open(
                        null,
                        false,
                        Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318", "OTEL_SDK_DISABLED", "true"))
                .on());
        try (Tracing t = Tracing.open(null, false, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))) {
            assertTrue(t.on());
            assertFalse(t.trace().capturesContent());
        }
        try (Tracing t = Tracing.open(
                "http://127.0.0.1:4318/?token=abc",
                false,
                Map.of("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true"))) {
            assertTrue(t.trace().capturesContent());
            assertEquals("http://127.0.0.1:4318/", t.target(), "no query in what is shown");
        }
        assertEquals(GenAiTrace.OFF, GenAiTrace.current(), "outside a traced unit: off");
        for (String bad : List.of("127.0.0.1:4318", "ftp://x/y", "file:", "http://user:pw@127.0.0.1:4318")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> Tracing.open(bad, false, Map.of()));
            assertFalse(e.getMessage().contains("pw@"), e.getMessage());
        }
    }

    static final String BFCL = """
            name: traced
            domain: bfcl
            tasks: [simple_python_1, parallel_0]
            candidates: [{id: gold, provider: scripted, model: gold, action_space: tools}]
            """;

    /** A span as the OTLP protobuf carries it: ids as hex, its name, its string and integer attributes. */
    record WireSpan(String traceId, String spanId, String parentSpanId, String name, Map<String, Object> attributes) {}

    @Test
    void theCommandsOtelSendsTheSpansToAnOtlpHttpReceiverOnLoopback() throws Exception {
        List<byte[]> bodies = new CopyOnWriteArrayList<>();
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            seen.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " "
                    + ex.getRequestHeaders().getFirst("Content-Type"));
            bodies.add(ex.getRequestBody().readAllBytes());
            ex.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            ex.sendResponseHeaders(200, 0); // an empty ExportTraceServiceResponse
            ex.close();
        });
        server.start();
        try {
            Path file = tmp.resolve("traced.yaml");
            Files.writeString(file, BFCL);
            ConformanceCommandTest.Run r = ConformanceCommandTest.main(
                    "experiment",
                    "run",
                    file.toString(),
                    "--dir",
                    tmp.resolve("run").toString(),
                    "--no-progress",
                    "--otel",
                    "http://127.0.0.1:" + server.getAddress().getPort());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().contains("traces: http://127.0.0.1:"), r.err());
        } finally {
            server.stop(0);
        }
        assertFalse(seen.isEmpty(), "the exporter sent nothing");
        for (String s : seen) assertEquals("POST /v1/traces application/x-protobuf", s);
        List<WireSpan> spans = new ArrayList<>();
        for (byte[] b : bodies) spans.addAll(Otlp.spans(b));
        assertTree(spans);
    }

    @Test
    void theCommandsOtelFileWritesOneSpanAJsonLine() throws Exception {
        Path file = tmp.resolve("traced.yaml");
        Files.writeString(file, BFCL);
        Path trace = tmp.resolve("out/trace.jsonl");
        ConformanceCommandTest.Run r = ConformanceCommandTest.main(
                "experiment",
                "run",
                file.toString(),
                "--dir",
                tmp.resolve("run").toString(),
                "--no-progress",
                "--otel",
                "file:" + trace);
        assertEquals(0, r.code(), r.err());
        assertTree(readJsonLines(trace));
    }

    /** {@code %run --otel file:PATH} (the magic's path to the kernel's SDK is {@code TraceExport}'s service): one episode's tree. */
    @Test
    void theRunMagicsOtelFileWritesTheEpisodesSpans() throws Exception {
        Path trace = tmp.resolve("run-trace.jsonl");
        Session s = new Session(MagicRegistry.standard(), Registry.process());
        s.domain("loop");
        RunView run = (RunView) s.magic("%run --candidate ideal --task 6 --otel file:" + trace);
        assertEquals(1.0, run.attempt().reward());
        List<WireSpan> spans = readJsonLines(trace);
        List<WireSpan> roots =
                spans.stream().filter(x -> x.parentSpanId().isEmpty()).toList();
        assertEquals(1, roots.size(), spans.toString());
        assertEquals("invoke_agent", roots.getFirst().attributes().get("gen_ai.operation.name"));
        assertEquals("6", roots.getFirst().attributes().get("brokkr.task.id"));
        List<WireSpan> kids = spans.stream()
                .filter(x -> x.parentSpanId().equals(roots.getFirst().spanId()))
                .toList();
        assertEquals(spans.size() - 1, kids.size(), "every other span is the episode's child");
        // pointer chasing at depth 6: six hops, each one model step and its tool call
        assertEquals(
                6,
                kids.stream().filter(k -> k.name().startsWith("execute_tool ")).count(),
                kids.toString());
        assertTrue(kids.stream().anyMatch(k -> k.name().startsWith("chat")), kids.toString());
        // Without --otel (and no OTEL_* variables in this JVM's environment) the run sends nothing; a bad target is a
        // usage error.
        Files.delete(trace);
        s.magic("%run --candidate ideal --task 6");
        assertFalse(Files.exists(trace));
        assertThrows(MagicUsageException.class, () -> s.magic("%run --candidate ideal --task 6 --otel ftp://x/y"));
    }

    private static List<WireSpan> readJsonLines(Path trace) throws java.io.IOException {
        List<WireSpan> spans = new ArrayList<>();
        for (String line : Files.readAllLines(trace)) {
            PyDict d = Json.parse(line).asDict();
            Map<String, Object> attrs = new LinkedHashMap<>();
            for (var e : d.get("attributes").asDict().entries()) attrs.put(e.getKey(), plain(e.getValue()));
            assertEquals("brokkr", str(d.get("scope").asDict().get("name")));
            spans.add(new WireSpan(
                    str(d.get("traceId")),
                    str(d.get("spanId")),
                    d.get("parentSpanId") == null ? "" : str(d.get("parentSpanId")),
                    str(d.get("name")),
                    attrs));
        }
        return spans;
    }

    private static String str(Value v) {
        return ((brokkr.value.PyStr) v).value();
    }

    private static Object plain(Value v) {
        return switch (v) {
            case brokkr.value.PyStr s -> s.value();
            case brokkr.value.PyInt i -> i.longValue();
            default -> v.toString();
        };
    }

    /** Two BFCL cells: two roots, each over one chat and its tool calls (parallel_0: two), every span in its root's trace. */
    private static void assertTree(List<WireSpan> spans) {
        List<WireSpan> roots =
                spans.stream().filter(s -> s.parentSpanId().isEmpty()).toList();
        assertEquals(2, roots.size(), spans.toString());
        Map<String, Integer> toolsByTask = new HashMap<>();
        for (WireSpan root : roots) {
            assertEquals("invoke_agent", root.attributes().get("gen_ai.operation.name"));
            assertEquals("gold", root.attributes().get("brokkr.candidate"));
            assertEquals(1L, root.attributes().get("brokkr.trial"));
            assertNotNull(root.attributes().get("brokkr.cell.environment_id"));
            List<WireSpan> kids = spans.stream()
                    .filter(s -> s.parentSpanId().equals(root.spanId()))
                    .toList();
            for (WireSpan k : kids) assertEquals(root.traceId(), k.traceId());
            assertEquals(
                    1, kids.stream().filter(k -> k.name().startsWith("chat")).count(), kids.toString());
            toolsByTask.put((String) root.attributes().get("brokkr.task.id"), (int) kids.stream()
                    .filter(k -> k.name().startsWith("execute_tool "))
                    .count());
        }
        assertEquals(Map.of("simple_python_1", 1, "parallel_0", 2), toolsByTask);
        assertEquals(2 + 2 + 3, spans.size());
    }

    /** Just enough of the OTLP protobuf (opentelemetry-proto's trace.proto) to read spans back. */
    static final class Otlp {
        private final byte[] b;
        private int p;
        private final int end;

        private Otlp(byte[] b, int from, int to) {
            this.b = b;
            this.p = from;
            this.end = to;
        }

        static List<WireSpan> spans(byte[] request) {
            List<WireSpan> out = new ArrayList<>();
            // ExportTraceServiceRequest.resource_spans = 1; ResourceSpans.scope_spans = 2; ScopeSpans.spans = 2
            for (Otlp rs : new Otlp(request, 0, request.length).messages(1))
                for (Otlp ss : rs.messages(2)) for (Otlp span : ss.messages(2)) out.add(span.span());
            return out;
        }

        private long varint() {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte x = b[p++];
                v |= (long) (x & 0x7f) << shift;
                if (x >= 0) return v;
            }
        }

        /** Each field of this message: {number, wire type, start, end} (the value's bytes for length-delimited ones). */
        private List<long[]> fields() {
            List<long[]> out = new ArrayList<>();
            int save = p;
            while (p < end) {
                long tag = varint();
                int type = (int) (tag & 7);
                long start, stop;
                switch (type) {
                    case 0 -> {
                        start = p;
                        varint();
                        stop = p;
                    }
                    case 1 -> {
                        start = p;
                        p += 8;
                        stop = p;
                    }
                    case 2 -> {
                        int len = (int) varint();
                        start = p;
                        p += len;
                        stop = p;
                    }
                    case 5 -> {
                        start = p;
                        p += 4;
                        stop = p;
                    }
                    default -> throw new IllegalStateException("wire type " + type);
                }
                out.add(new long[] {tag >>> 3, type, start, stop});
            }
            p = save;
            return out;
        }

        private List<Otlp> messages(int field) {
            List<Otlp> out = new ArrayList<>();
            for (long[] f : fields()) if (f[0] == field && f[1] == 2) out.add(new Otlp(b, (int) f[2], (int) f[3]));
            return out;
        }

        private String text(long[] f) {
            return new String(b, (int) f[2], (int) (f[3] - f[2]), StandardCharsets.UTF_8);
        }

        private String hex(long[] f) {
            StringBuilder s = new StringBuilder();
            for (int i = (int) f[2]; i < f[3]; i++) s.append(String.format("%02x", b[i]));
            return s.toString();
        }

        private WireSpan span() {
            String trace = "", id = "", parent = "", name = "";
            Map<String, Object> attrs = new LinkedHashMap<>();
            for (long[] f : fields()) {
                switch ((int) f[0]) {
                    case 1 -> trace = hex(f);
                    case 2 -> id = hex(f);
                    case 4 -> parent = hex(f);
                    case 5 -> name = text(f);
                    case 9 -> {
                        Otlp kv = new Otlp(b, (int) f[2], (int) f[3]);
                        String key = null;
                        Object value = null;
                        for (long[] g : kv.fields()) {
                            if (g[0] == 1) key = kv.text(g);
                            if (g[0] == 2) {
                                Otlp any = new Otlp(b, (int) g[2], (int) g[3]);
                                for (long[] h : any.fields()) {
                                    if (h[0] == 1) value = any.text(h); // string_value
                                    if (h[0] == 3) { // int_value
                                        any.p = (int) h[2];
                                        value = any.varint();
                                    }
                                }
                            }
                        }
                        attrs.put(key, value);
                    }
                    default -> {}
                }
            }
            return new WireSpan(trace, id, parent, name, attrs);
        }
    }
}
