package brokkr.provider.testing;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.provider.AnthropicMessages;
import brokkr.provider.DecodedRequest;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake Anthropic Messages API on loopback for the real Claude Code CLI: point the CLI at it with
 * {@code ANTHROPIC_BASE_URL=}{@link #url()} and a dummy key ({@link #apiKeyEnv}, {@link #oauthEnv}), and
 * every {@code POST /v1/messages} is answered with what a {@link Handler} scripts, in the streaming (SSE)
 * form the CLI asks for ({@code message_start}, {@code content_block_start/delta/stop} with
 * {@code text_delta} and {@code input_json_delta}, {@code message_delta}, {@code message_stop}), or as an
 * API error (429, 401, 529, ...). Every request is recorded (the e-mail probe reads them; tests assert what
 * was sent); the credential header is kept out of the recorded headers.
 *
 * <p>Usage windows: the CLI learns of a subscription's windows only from the response headers
 * {@code anthropic-ratelimit-unified-*} ({@code -status}, {@code -reset}, {@code -representative-claim},
 * and per window {@code -5h-utilization}, {@code -5h-reset}, {@code -5h-status}, {@code -7d-...}), and
 * only with subscription credentials ({@code CLAUDE_CODE_OAUTH_TOKEN}); it turns them into
 * {@code rate_limit_event} lines. {@link Reply#window} adds them to any reply;
 * {@link Reply#usageLimitRejected} is the 429 a refused subscription gets. Never a real endpoint: the
 * server binds 127.0.0.1 on an ephemeral port.
 */
public final class FakeAnthropicServer implements AutoCloseable {

    /** One request as received; header names lower-case, the credential ({@code x-api-key} / {@code authorization}) only in {@code credential}. */
    public record Request(
            int index, String method, String path, Map<String, String> headers, String body, String credential) {
        public PyDict json() {
            return Json.parse(body).asDict();
        }

        /** Whether this is a Messages call ({@code POST .../v1/messages}). */
        public boolean isMessages() {
            return method.equals("POST") && path.endsWith("/v1/messages");
        }

        /** The model the request names. */
        public String model() {
            return json().get("model") instanceof brokkr.value.PyStr s ? s.value() : null;
        }

        /** The body read back as Brokkr messages ({@code system} first; the CLI's reminders are user text). */
        public DecodedRequest decoded() {
            return AnthropicMessages.decodeRequest(body);
        }

        /** The text of the last text block of the last user message: the prompt of a {@code -p} call. */
        public String lastUserText() {
            PyList messages = (PyList) json().get("messages");
            for (int i = messages.size() - 1; i >= 0; i--) {
                PyDict m = messages.get(i).asDict();
                if (!"user".equals(m.get("role").asStr())) continue;
                Value c = m.get("content");
                if (c instanceof brokkr.value.PyStr s) return s.value();
                PyList blocks = (PyList) c;
                for (int j = blocks.size() - 1; j >= 0; j--) {
                    PyDict b = blocks.get(j).asDict();
                    if ("text".equals(b.get("type").asStr()))
                        return b.get("text").asStr();
                }
            }
            return null;
        }

        /** The system prompt's text blocks joined with newlines. */
        public String systemText() {
            Value s = json().get("system");
            if (s instanceof brokkr.value.PyStr x) return x.value();
            StringBuilder sb = new StringBuilder();
            if (s instanceof PyList l)
                for (Value v : l) {
                    if (!sb.isEmpty()) sb.append('\n');
                    sb.append(v.asDict().get("text").asStr());
                }
            return sb.toString();
        }

        @Override
        public String toString() {
            return "Request[" + index + " " + method + " " + path + ", " + body.length() + " chars]";
        }
    }

    /** A content block of a scripted reply. */
    public sealed interface Block {}

    public record Text(String text) implements Block {}

    /** A {@code tool_use} block; {@code input} a JSON object (sent as one {@code input_json_delta}). */
    public record ToolUse(String id, String name, PyDict input) implements Block {}

    /** What the server answers. */
    public sealed interface Reply {
        Map<String, String> headers();

        /** A streamed assistant message. */
        record Streamed(
                List<Block> content,
                String stopReason,
                long inputTokens,
                long outputTokens,
                Map<String, String> headers)
                implements Reply {}

        /** An API error: {@code {"type":"error","error":{"type":type,"message":message}}} with {@code status}. */
        record Failure(int status, String type, String message, Map<String, String> headers) implements Reply {}

        default Reply withHeaders(Map<String, String> more) {
            Map<String, String> h = new LinkedHashMap<>(headers());
            h.putAll(more);
            return switch (this) {
                case Streamed s -> new Streamed(s.content(), s.stopReason(), s.inputTokens(), s.outputTokens(), h);
                case Failure f -> new Failure(f.status(), f.type(), f.message(), h);
            };
        }

        /**
         * This reply with a usage window reported: {@code window} is {@code 5h} or {@code 7d} (the CLI's
         * {@code five_hour}, {@code seven_day}), {@code utilization} 0..1, {@code resetsAt} epoch seconds;
         * status {@code allowed}, {@code allowed_warning} (from 0.9) or {@code rejected} (from 1.0).
         */
        default Reply window(String window, double utilization, long resetsAt) {
            String status = utilization >= 1.0 ? "rejected" : utilization >= 0.9 ? "allowed_warning" : "allowed";
            String claim = window.equals("5h") ? "five_hour" : window.equals("7d") ? "seven_day" : window;
            Map<String, String> h = new LinkedHashMap<>();
            h.put("anthropic-ratelimit-unified-status", status);
            h.put("anthropic-ratelimit-unified-reset", String.valueOf(resetsAt));
            h.put("anthropic-ratelimit-unified-representative-claim", claim);
            h.put("anthropic-ratelimit-unified-" + window + "-status", status);
            h.put("anthropic-ratelimit-unified-" + window + "-utilization", String.valueOf(utilization));
            h.put("anthropic-ratelimit-unified-" + window + "-reset", String.valueOf(resetsAt));
            // The CLI reports a warning only with the threshold that was crossed.
            if (utilization >= 0.9) h.put("anthropic-ratelimit-unified-" + window + "-surpassed-threshold", "0.9");
            return withHeaders(h);
        }

        static Reply text(String text) {
            return new Streamed(List.of(new Text(text)), "end_turn", 10, 5, Map.of());
        }

        /** A message of {@code blocks} ({@code stop_reason} {@code tool_use} when one is a tool call). */
        static Reply message(Block... blocks) {
            boolean tool = List.of(blocks).stream().anyMatch(b -> b instanceof ToolUse);
            return new Streamed(List.of(blocks), tool ? "tool_use" : "end_turn", 10, 5, Map.of());
        }

        static Reply failure(int status, String type, String message) {
            return new Failure(status, type, message, Map.of());
        }

        static Reply rateLimited() {
            return failure(429, "rate_limit_error", "Number of requests has exceeded your rate limit");
        }

        static Reply unauthorized() {
            return failure(401, "authentication_error", "invalid x-api-key");
        }

        static Reply overloaded() {
            return failure(529, "overloaded_error", "Overloaded");
        }

        /** The 429 a subscription gets when its {@code window} ({@code 5h}, {@code 7d}) is used up until {@code resetsAt}. */
        static Reply usageLimitRejected(String window, long resetsAt) {
            return rateLimited().window(window, 1.0, resetsAt);
        }
    }

    /** Decides the reply to a Messages request; an exception becomes a 500 saying so. */
    @FunctionalInterface
    public interface Handler {
        Reply handle(Request request) throws Exception;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger counter = new AtomicInteger();
    private final AtomicInteger messageCounter = new AtomicInteger();

    private FakeAnthropicServer(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", ex -> serve(ex, handler));
        server.start();
    }

    public static FakeAnthropicServer start(Handler handler) {
        try {
            return new FakeAnthropicServer(handler);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind a loopback port", e);
        }
    }

    /** The n-th Messages request gets the n-th reply; beyond the script, a 500 saying so. */
    public static FakeAnthropicServer sequence(Reply... replies) {
        List<Reply> script = List.of(replies);
        AtomicInteger next = new AtomicInteger();
        return start(r -> {
            int i = next.getAndIncrement();
            return i < script.size() ? script.get(i) : Reply.failure(500, "api_error", "script exhausted");
        });
    }

    /**
     * A model driven by a Brokkr {@code candidate} over the CLI's own conversation: each request decoded
     * with {@link AnthropicMessages#decodeRequest} (the CLI's tool calls and results as Brokkr messages,
     * its tools as {@code ToolSpec}s, MCP tools named {@code mcp__<server>__<tool>}), the candidate's
     * message sent back as text and {@code tool_use} blocks. An infrastructure failure of the candidate
     * is a 500.
     */
    public static FakeAnthropicServer ofCandidate(Candidate candidate) {
        return start(r -> {
            DecodedRequest req = r.decoded();
            try {
                return reply(candidate.next(req.history(), req.tools()).message());
            } catch (InfrastructureFailure f) {
                return Reply.failure(500, "api_error", f.getMessage());
            }
        });
    }

    /** {@code m} as a scripted reply: its text, then a {@code tool_use} block per call. */
    public static Reply reply(Message.Assistant m) {
        List<Block> blocks = new ArrayList<>();
        if (m.content() != null && !m.content().isEmpty()) blocks.add(new Text(m.content()));
        for (ToolCall c : m.toolCalls()) blocks.add(new ToolUse(c.id(), c.name(), c.arguments()));
        if (blocks.isEmpty()) blocks.add(new Text(""));
        return Reply.message(blocks.toArray(Block[]::new));
    }

    /** {@code http://127.0.0.1:<port>}: the CLI's {@code ANTHROPIC_BASE_URL}. */
    public String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":"
                + server.getAddress().getPort();
    }

    /** {@code ANTHROPIC_BASE_URL} and a dummy {@code ANTHROPIC_API_KEY} (API-key credentials: no usage windows). */
    public Map<String, String> apiKeyEnv() {
        return Map.of("ANTHROPIC_BASE_URL", url(), "ANTHROPIC_API_KEY", "sk-ant-api03-fake-key-for-tests-only");
    }

    /** {@code ANTHROPIC_BASE_URL} and a dummy {@code CLAUDE_CODE_OAUTH_TOKEN} (subscription credentials: usage windows reported). */
    public Map<String, String> oauthEnv() {
        return Map.of("ANTHROPIC_BASE_URL", url(), "CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-fake-token-for-tests-only");
    }

    /** Every request received so far (Messages calls and the CLI's other probes), in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The Messages calls received so far. */
    public List<Request> messageRequests() {
        return requests.stream().filter(Request::isMessages).toList();
    }

    private void serve(HttpExchange ex, Handler handler) throws IOException {
        try (ex) {
            Request req = ScriptedModelServer.read(ex, counter.getAndIncrement(), Request::new);
            requests.add(req);
            if (!req.isMessages()) {
                // The CLI's start-up probes (GET /api/hello, ...): nothing to say.
                ex.sendResponseHeaders(404, -1);
                return;
            }
            Reply reply;
            try {
                reply = handler.handle(req);
            } catch (Exception e) {
                reply = Reply.failure(500, "api_error", String.valueOf(e));
            }
            String model = req.model() == null ? "fake" : req.model();
            byte[] out;
            String contentType;
            int status;
            switch (reply) {
                case Reply.Streamed s -> {
                    out = sse(s, model, "msg_fake_" + messageCounter.incrementAndGet())
                            .getBytes(StandardCharsets.UTF_8);
                    contentType = "text/event-stream";
                    status = 200;
                }
                case Reply.Failure f -> {
                    out = PyJson.dumps(PyDict.of(
                                    "type", "error", "error", PyDict.of("type", f.type(), "message", f.message())))
                            .getBytes(StandardCharsets.UTF_8);
                    contentType = "application/json";
                    status = f.status();
                }
            }
            ex.getResponseHeaders().add("Content-Type", contentType);
            ex.getResponseHeaders().add("request-id", "req_fake_" + req.index());
            reply.headers().forEach(ex.getResponseHeaders()::add);
            ex.sendResponseHeaders(status, out.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }

    /** {@code s} as the Messages API's server-sent events. */
    static String sse(Reply.Streamed s, String model, String id) {
        StringBuilder sb = new StringBuilder();
        event(
                sb,
                "message_start",
                PyDict.of(
                        "type",
                        "message_start",
                        "message",
                        PyDict.of(
                                "id",
                                id,
                                "type",
                                "message",
                                "role",
                                "assistant",
                                "model",
                                model,
                                "content",
                                PyList.of(),
                                "stop_reason",
                                null,
                                "stop_sequence",
                                null,
                                "usage",
                                PyDict.of("input_tokens", s.inputTokens(), "output_tokens", 1))));
        int i = 0;
        for (Block b : s.content()) {
            switch (b) {
                case Text t -> {
                    event(
                            sb,
                            "content_block_start",
                            PyDict.of(
                                    "type",
                                    "content_block_start",
                                    "index",
                                    i,
                                    "content_block",
                                    PyDict.of("type", "text", "text", "")));
                    event(
                            sb,
                            "content_block_delta",
                            PyDict.of(
                                    "type",
                                    "content_block_delta",
                                    "index",
                                    i,
                                    "delta",
                                    PyDict.of("type", "text_delta", "text", t.text())));
                }
                case ToolUse u -> {
                    event(
                            sb,
                            "content_block_start",
                            PyDict.of(
                                    "type",
                                    "content_block_start",
                                    "index",
                                    i,
                                    "content_block",
                                    PyDict.of(
                                            "type",
                                            "tool_use",
                                            "id",
                                            u.id(),
                                            "name",
                                            u.name(),
                                            "input",
                                            PyDict.empty())));
                    event(
                            sb,
                            "content_block_delta",
                            PyDict.of(
                                    "type",
                                    "content_block_delta",
                                    "index",
                                    i,
                                    "delta",
                                    PyDict.of("type", "input_json_delta", "partial_json", PyJson.dumps(u.input()))));
                }
            }
            event(sb, "content_block_stop", PyDict.of("type", "content_block_stop", "index", i));
            i++;
        }
        event(
                sb,
                "message_delta",
                PyDict.of(
                        "type", "message_delta",
                        "delta", PyDict.of("stop_reason", s.stopReason(), "stop_sequence", null),
                        "usage", PyDict.of("output_tokens", s.outputTokens())));
        event(sb, "message_stop", PyDict.of("type", "message_stop"));
        return sb.toString();
    }

    private static void event(StringBuilder sb, String name, PyDict data) {
        sb.append("event: ")
                .append(name)
                .append('\n')
                .append("data: ")
                .append(PyJson.dumps(data))
                .append("\n\n");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "FakeAnthropicServer[" + url() + ", " + requests.size() + " requests]";
    }
}
