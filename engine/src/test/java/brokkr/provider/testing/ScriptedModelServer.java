package brokkr.provider.testing;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Turn;
import brokkr.provider.AnthropicMessages;
import brokkr.provider.DecodedRequest;
import brokkr.provider.OpenAiChat;
import brokkr.provider.OpenAiResponses;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A model server on loopback for tests: binds 127.0.0.1 on an ephemeral port and answers every POST
 * with whatever a {@link Handler} decides, recording each request. Point a provider at it with
 * {@code OPENAI_BASE_URL=}{@link #baseUrl()} (see {@link #openAiEnv()}) and run a benchmark end to end
 * without a network, a key or a real model.
 *
 * <p>Three ways to script it:
 * <ul>
 *   <li>{@link #ofCandidate(Candidate)}: a model driven by a Brokkr candidate (for example a
 *       {@link brokkr.provider.ScriptedCandidate} replaying gold actions), speaking OpenAI Chat
 *       Completions, OpenAI Responses (a path ending in {@code /responses}, streamed on request) and Anthropic Messages. The request is decoded into messages and tools, the
 *       candidate's message is encoded as a response shaped like the API's documented example;</li>
 *   <li>{@link #ofJson(Function)}: a function from the request JSON to the response JSON;</li>
 *   <li>{@link #start(Handler)}: full control over status, headers and body, plus faults: a
 *       {@link Reply#stall() stall} (accept, never answer) or a {@link Reply#stallBody stalled body}
 *       (headers and part of the body, then nothing). Scripts of replies in order:
 *       {@link #sequence(Reply...)}.</li>
 * </ul>
 *
 * <p>Typical end-to-end use:
 * <pre>{@code
 * var gold = ScriptedCandidate.replay(List.of(
 *         ScriptedCandidate.calls(ScriptedCandidate.call("get_order_details", "order_id", "#W123")),
 *         ScriptedCandidate.say("Your order is cancelled.")), ScriptedCandidate.say("###STOP###"));
 * try (var server = ScriptedModelServer.ofCandidate(ScriptedCandidate.of(gold))) {
 *     ModelProvider agent = Providers.fromEnvironment(server.openAiEnv(), "openai", "gold", options);
 *     // ... run the benchmark with `agent` as its candidate, then inspect server.requests()
 * }
 * }</pre>
 *
 * <p>Recorded requests keep the credential header out of their {@code toString} and header map (so a
 * test's logs never show it); {@link Request#credential()} gives it to tests that check it was sent.
 * Requests are handled on virtual threads, so stalls hold no platform thread; {@link #close()}
 * releases every stall and stops the server.
 */
public final class ScriptedModelServer implements AutoCloseable {

    /** One request as received. {@code headers} have lower-case names; credentials are redacted there. */
    public record Request(
            int index, String method, String path, Map<String, String> headers, String body, String credential) {
        public PyDict json() {
            return Json.parse(body).asDict();
        }
        /** The body read as a Chat Completions request. */
        public DecodedRequest chat() {
            return OpenAiChat.decodeRequest(body);
        }
        /** The body read as an OpenAI Responses request. */
        public DecodedRequest responses() {
            return OpenAiResponses.decodeRequest(body);
        }
        /** The body read as an Anthropic Messages request. */
        public DecodedRequest anthropic() {
            return AnthropicMessages.decodeRequest(body);
        }

        @Override
        public String toString() {
            return "Request[" + index + " " + method + " " + path + ", headers=" + headers + ", body=" + body + "]";
        }
    }

    /** What the server does with one request. */
    public sealed interface Reply {
        /** Answer with {@code status}, {@code headers} and {@code body} (JSON content type unless given). */
        record Respond(int status, Map<String, String> headers, String body) implements Reply {
            public Respond {
                headers = Map.copyOf(headers);
                Objects.requireNonNull(body);
            }
        }
        /** Accept the request and never answer (until the server closes). */
        record Stall() implements Reply {}
        /** Send the status line, headers and a {@code Content-Length} of {@code declaredLength}, then part of the body, then nothing. */
        record StallBody(int status, String partialBody, int declaredLength) implements Reply {}

        static Reply json(PyDict body) {
            return new Respond(200, Map.of(), PyJson.dumps(body));
        }

        static Reply json(int status, String body) {
            return new Respond(status, Map.of(), body);
        }

        static Reply status(int status, String body, String... headerNamesAndValues) {
            Map<String, String> h = new LinkedHashMap<>();
            for (int i = 0; i + 1 < headerNamesAndValues.length; i += 2)
                h.put(headerNamesAndValues[i], headerNamesAndValues[i + 1]);
            return new Respond(status, h, body);
        }

        static Reply stall() {
            return new Stall();
        }

        static Reply stallBody(int status, String partialBody, int declaredLength) {
            return new StallBody(status, partialBody, declaredLength);
        }
    }

    /** Decides the reply to a request; an exception becomes a 500 with the exception's text. */
    @FunctionalInterface
    public interface Handler {
        Reply handle(Request request) throws Exception;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger counter = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);

    private ScriptedModelServer(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", ex -> serve(ex, handler));
        server.start();
    }

    /** A server answering with {@code handler}. */
    public static ScriptedModelServer start(Handler handler) {
        try {
            return new ScriptedModelServer(handler);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind a loopback port", e);
        }
    }

    /** The n-th request gets the n-th reply; requests beyond the script get a 500 saying so. */
    public static ScriptedModelServer sequence(Reply... replies) {
        List<Reply> script = List.of(replies);
        return start(r -> r.index() < script.size()
                ? script.get(r.index())
                : Reply.json(500, "{\"error\": {\"message\": \"script exhausted\"}}"));
    }

    /** An OpenAI-compatible model whose answers are {@code policy(request JSON)}, a Chat Completions response. */
    public static ScriptedModelServer ofJson(Function<PyDict, PyDict> policy) {
        return start(r -> Reply.json(policy.apply(r.json())));
    }

    /**
     * A model driven by {@code candidate}, speaking both APIs: requests to a path ending in
     * {@code /messages} are read and answered as Anthropic Messages, all others as OpenAI Chat
     * Completions. Each request is decoded into history and tools, and the candidate's next message is
     * returned shaped like the API's documented response, with id {@code chatcmpl-scripted-<index>} or
     * {@code msg_scripted_<index>}. A candidate that throws {@link InfrastructureFailure} makes the
     * server answer 500, so the client's retry path runs.
     */
    public static ScriptedModelServer ofCandidate(Candidate candidate) {
        return start(r -> {
            if (r.path().endsWith("/responses")) return responsesReply(candidate, r);
            boolean anthropic = r.path().endsWith("/messages");
            DecodedRequest req = anthropic ? r.anthropic() : r.chat();
            String model = req.model() == null ? "scripted" : req.model();
            try {
                Turn t = candidate.next(req.history(), req.tools());
                return Reply.json(
                        anthropic
                                ? AnthropicMessages.encodeResponse(t.message(), model, "msg_scripted_" + r.index())
                                : OpenAiChat.encodeResponse(t.message(), model, "chatcmpl-scripted-" + r.index()));
            } catch (InfrastructureFailure f) {
                return Reply.json(
                        500,
                        PyJson.dumps(PyDict.of("error", PyDict.of("message", f.getMessage(), "type", "server_error"))));
            }
        });
    }

    /**
     * {@code candidate}'s answer to an OpenAI Responses request: a response object with id
     * {@code resp_scripted_<index>}, or its server-sent events when the request asked {@code stream: true}.
     */
    public static Reply responsesReply(Candidate candidate, Request r) {
        DecodedRequest req = r.responses();
        String model = req.model() == null ? "scripted" : req.model();
        try {
            Turn t = candidate.next(req.history(), req.tools());
            return responseReply(t.message(), model, "resp_scripted_" + r.index(), r);
        } catch (InfrastructureFailure f) {
            return Reply.json(
                    500,
                    PyJson.dumps(PyDict.of("error", PyDict.of("message", f.getMessage(), "type", "server_error"))));
        }
    }

    /** {@code m} as a Responses reply to {@code r}: streamed when {@code r} asked {@code stream: true}. */
    public static Reply responseReply(brokkr.conversation.Message.Assistant m, String model, String id, Request r) {
        boolean stream = r.json().get("stream") instanceof brokkr.value.PyBool b && b.value();
        return stream
                ? Reply.status(200, OpenAiResponses.encodeStream(m, model, id), "Content-Type", "text/event-stream")
                : Reply.json(OpenAiResponses.encodeResponse(m, model, id));
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":"
                + server.getAddress().getPort();
    }

    /** The OpenAI-style base URL, {@code http://127.0.0.1:<port>/v1}. */
    public String baseUrl() {
        return url() + "/v1";
    }

    /** An environment for {@code Providers.fromEnvironment(env, "openai", ...)} pointing at this server. */
    public Map<String, String> openAiEnv() {
        return Map.of("OPENAI_BASE_URL", baseUrl());
    }

    /** An environment for {@code Providers.fromEnvironment(env, "anthropic", ...)} pointing at this server, with {@code key}. */
    public Map<String, String> anthropicEnv(String key) {
        return Map.of("ANTHROPIC_BASE_URL", url(), "ANTHROPIC_API_KEY", key);
    }

    /** Every request received so far, in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public int requestCount() {
        return requests.size();
    }

    /** How a fake server's own request record is made from what {@link #read} took off the exchange. */
    @FunctionalInterface
    interface RequestOf<R> {
        R of(int index, String method, String path, Map<String, String> headers, String body, String credential);
    }

    /**
     * A request as the fake servers record it: the body, the headers by lower-case name with the credential's
     * ({@code authorization}, {@code x-api-key}) value replaced by {@code [REDACTED]} and kept apart.
     */
    static <R> R read(HttpExchange ex, int index, RequestOf<R> make) throws IOException {
        byte[] in;
        try (InputStream is = ex.getRequestBody()) {
            in = is.readAllBytes();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        String credential = null;
        for (var e : ex.getRequestHeaders().entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            String value = String.join(",", e.getValue());
            if (name.equals("authorization") || name.equals("x-api-key")) {
                credential = value;
                value = "[REDACTED]";
            }
            headers.put(name, value);
        }
        return make.of(
                index,
                ex.getRequestMethod(),
                ex.getRequestURI().getPath(),
                Map.copyOf(headers),
                new String(in, StandardCharsets.UTF_8),
                credential);
    }

    private void serve(HttpExchange ex, Handler handler) throws IOException {
        try (ex) {
            Request req = ScriptedModelServer.read(ex, counter.getAndIncrement(), Request::new);
            requests.add(req);
            Reply reply;
            try {
                reply = handler.handle(req);
            } catch (Exception e) {
                reply = Reply.json(
                        500,
                        PyJson.dumps(
                                PyDict.of("error", PyDict.of("message", String.valueOf(e), "type", "server_error"))));
            }
            switch (reply) {
                case Reply.Respond r -> {
                    byte[] out = r.body().getBytes(StandardCharsets.UTF_8);
                    if (r.headers().keySet().stream().noneMatch(k -> k.equalsIgnoreCase("content-type"))) {
                        ex.getResponseHeaders().add("Content-Type", "application/json");
                    }
                    r.headers().forEach(ex.getResponseHeaders()::add);
                    ex.sendResponseHeaders(r.status(), out.length == 0 ? -1 : out.length);
                    if (out.length > 0)
                        try (OutputStream os = ex.getResponseBody()) {
                            os.write(out);
                        }
                }
                case Reply.Stall s -> awaitClose();
                case Reply.StallBody s -> {
                    byte[] part = s.partialBody().getBytes(StandardCharsets.UTF_8);
                    ex.getResponseHeaders().add("Content-Type", "application/json");
                    ex.sendResponseHeaders(s.status(), Math.max(s.declaredLength(), part.length + 1));
                    OutputStream os = ex.getResponseBody();
                    os.write(part);
                    os.flush();
                    awaitClose();
                }
            }
        } catch (IOException e) {
            // The client went away (a timed-out attempt): nothing to answer.
        }
    }

    private void awaitClose() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Releases stalled requests and stops the server at once. */
    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "ScriptedModelServer[" + url() + ", " + requests.size() + " requests]";
    }
}
