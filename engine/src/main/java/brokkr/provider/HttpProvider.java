package brokkr.provider;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A model behind an HTTP API in some {@link WireFormat}, with retries.
 *
 * <p>One {@link #next} call encodes the request once and sends it up to {@code maxAttempts} times.
 * Retried: connection errors, timeouts (the per-attempt timeout covers connecting and the whole
 * exchange until the body has arrived, so a server that accepts and never answers, or stalls mid-body,
 * still ends the attempt), 408/409/429/5xx, and 2xx bodies that are not a response of the API
 * ({@link WireFormat.MalformedResponse}). A body longer than {@link ProviderOptions#maxResponseBytes()}
 * is not read further and fails the call at once. Between attempts it waits the server's {@code Retry-After}
 * (capped) or an exponential backoff with full jitter. Any other status fails at once. When no attempt
 * succeeds the call throws {@link InfrastructureFailure} with every attempt's {@link ModelCall}: the
 * episode is excluded from scores rather than counted as the model's failure. A successful body whose
 * tool-call arguments are malformed is not retried: that is the model's output, recorded as an agent
 * error on the {@link brokkr.conversation.ToolCall}.
 *
 * <p>Instances are immutable and safe to share between the virtual threads of concurrent episodes.
 * The key is only put into request headers. Everything recorded, logged or thrown passes through
 * {@link Secret#redact} (servers may echo a rejected key in their error body).
 */
public final class HttpProvider implements ModelProvider {
    private static final System.Logger LOG = System.getLogger("brokkr.provider");

    private final WireFormat wire;
    private final URI endpoint;
    private final String baseUrl;
    private final Secret key;
    private final ProviderOptions options;
    private final HttpClient http;
    private final Effects effects;
    private final RetryPolicy retry;

    public HttpProvider(
            WireFormat wire, String baseUrl, Secret key, ProviderOptions options, HttpClient http, Effects effects) {
        this.wire = Objects.requireNonNull(wire);
        this.endpoint = wire.endpoint(Objects.requireNonNull(baseUrl, "baseUrl"));
        this.baseUrl = withoutCredentials(baseUrl);
        this.key = Objects.requireNonNull(key);
        if (!key.isHeaderSafe()) throw new IllegalArgumentException(UNSENDABLE_KEY);
        this.options = Objects.requireNonNull(options);
        Objects.requireNonNull(options.model(), "model");
        this.http = Objects.requireNonNull(http);
        this.effects = Objects.requireNonNull(effects);
        this.retry = RetryPolicy.of(options);
    }

    /** Why a key is refused; never the key itself (the JDK's own message would quote it). */
    static final String UNSENDABLE_KEY =
            "the API key has a character an HTTP header cannot carry (only printable ASCII)";

    @Override
    public String provider() {
        return wire.name();
    }

    @Override
    public String model() {
        return options.model();
    }

    public ProviderOptions options() {
        return options;
    }

    public URI endpoint() {
        return endpoint;
    }

    /** The configured base URL as recorded: without user info, query or fragment (where credentials may hide). */
    @Override
    public String baseUrl() {
        return baseUrl;
    }

    /**
     * {@code base} with what may carry a credential removed ({@code user:password@}, {@code ?key=...},
     * {@code #...}) and no trailing slash, so that one server is one string; a text that is no URI is
     * cut at its first {@code @}, {@code ?} or {@code #} the same way.
     */
    public static String withoutCredentials(String base) {
        String b = base.strip();
        try {
            URI u = new URI(b);
            if (u.getScheme() != null && u.getHost() != null) {
                String s = u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                        + (u.getRawPath() == null ? "" : u.getRawPath());
                return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
            }
        } catch (java.net.URISyntaxException e) {
            // recorded by the cut below
        }
        int at = b.lastIndexOf('@');
        if (at >= 0) b = b.substring(at + 1);
        for (char c : new char[] {'?', '#'}) {
            int i = b.indexOf(c);
            if (i >= 0) b = b.substring(0, i);
        }
        return b;
    }

    /** What one attempt produced: a response (status, body, Retry-After; or a body over the cap, unread) or a transport error. */
    private record Exchange(int status, String body, Optional<Duration> retryAfter, String error, boolean overCap) {}

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
        String body = wire.encodeRequest(history, tools, options);
        String recordedBody = key.redact(body);
        HttpRequest request = request(body);
        List<ModelCall> calls = new ArrayList<>();
        String lastError = null;
        for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
            long startedAt = effects.clock().millis();
            long t0 = System.nanoTime();
            Exchange ex = exchange(request, calls, attempt, recordedBody, startedAt, t0);
            long durationMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            String responseBody = key.redact(ex.body());
            String error;
            boolean retryable;
            if (ex.overCap()) {
                error = "response body over the " + options.maxResponseBytes()
                        + "-byte cap (max_response_bytes); not read further";
                retryable = false;
            } else if (ex.error() != null) {
                error = ex.error();
                retryable = true;
            } else if (ex.status() >= 200 && ex.status() < 300) {
                try {
                    // Decoded from the redacted body, then redacted once more: a key split over several
                    // content parts is whole only once they are joined.
                    Message.Assistant message = redacted(wire.decodeResponse(responseBody));
                    calls.add(new ModelCall(
                            wire.name(),
                            options.model(),
                            attempt,
                            recordedBody,
                            ex.status(),
                            responseBody,
                            null,
                            startedAt,
                            durationMs));
                    return new Turn(message, calls);
                } catch (WireFormat.MalformedResponse e) {
                    error = "malformed response: " + key.redact(e.getMessage());
                    retryable = true;
                } catch (RuntimeException e) {
                    // A body the decoder did not foresee must not crash the episode; it is treated
                    // like any other unreadable body.
                    error = "malformed response: decoder failed: " + key.redact(String.valueOf(e));
                    retryable = true;
                }
            } else {
                retryable = RetryPolicy.retryableStatus(ex.status());
                // The body says why (an overloaded server, a proxy's page): shown cut short, retried or not.
                error = "HTTP " + ex.status()
                        + (retryable
                                ? responseBody == null || responseBody.isBlank()
                                        ? ""
                                        : ": " + oneLine(Wire.clip(responseBody, 300))
                                : " (not retried): " + Wire.clip(responseBody, 500));
                // What the request asked that the server may have refused, said in the user's terms (a model
                // option to drop), so that a refusal is never mistaken for the model's failure or left to guess.
                String hint = retryable ? null : wire.refusalHint(ex.status(), responseBody, options);
                if (hint != null) error += " [" + key.redact(hint) + "]";
            }
            calls.add(new ModelCall(
                    wire.name(),
                    options.model(),
                    attempt,
                    recordedBody,
                    ex.status(),
                    responseBody,
                    error,
                    startedAt,
                    durationMs));
            lastError = error;
            if (!retryable) {
                throw new InfrastructureFailure(describe() + ": " + error, calls, null);
            }
            if (attempt == retry.maxAttempts()) break;
            Duration wait = retry.delay(attempt, effects.jitter().getAsDouble(), ex.retryAfter());
            LOG.log(
                    System.Logger.Level.WARNING,
                    "{0} attempt {1}/{2} failed ({3}); retrying in {4} ms",
                    describe(),
                    String.valueOf(attempt),
                    String.valueOf(retry.maxAttempts()),
                    Wire.clip(error, 300),
                    String.valueOf(wait.toMillis()));
            try {
                effects.sleeper().sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InfrastructureFailure(describe() + ": interrupted while waiting to retry", calls, null);
            }
        }
        throw new InfrastructureFailure(
                describe() + ": " + calls.size() + " attempts failed; last: " + Wire.clip(lastError, 500), calls, null);
    }

    /**
     * The request body {@link #next} sends for this conversation, as it records it (the key scrubbed):
     * what a model-call cache is keyed by. Encoding is deterministic, so this is byte for byte the body
     * {@code next} would send.
     */
    public String recordedRequest(List<Message> history, List<ToolSpec> tools) {
        return key.redact(wire.encodeRequest(history, tools, options));
    }

    /**
     * The assistant message of a successful response body as {@link #next} recorded it, decoded as
     * {@code next} decodes it: a cached response answers exactly as the call it was recorded from.
     */
    public Message.Assistant replay(String recordedResponse) throws WireFormat.MalformedResponse {
        return redacted(wire.decodeResponse(recordedResponse));
    }

    /** {@code m} with the key scrubbed from its text, tool-call names, ids, arguments, argument texts and reasoning items. */
    private Message.Assistant redacted(Message.Assistant m) {
        List<ToolCall> calls = new ArrayList<>(m.toolCalls().size());
        for (ToolCall c : m.toolCalls()) {
            calls.add(new ToolCall(
                    key.redact(c.id()),
                    key.redact(c.name()),
                    (PyDict) redacted(c.arguments()),
                    key.redact(c.rawArguments()),
                    key.redact(c.malformed())));
        }
        List<PyDict> reasoning = new ArrayList<>(m.reasoning().size());
        for (PyDict r : m.reasoning()) reasoning.add((PyDict) redacted(r));
        Message.Assistant out = new Message.Assistant(key.redact(m.content()), calls, m.usage(), reasoning);
        return out.equals(m) ? m : out;
    }

    private Value redacted(Value v) {
        return switch (v) {
            case PyStr s -> {
                String r = key.redact(s.value());
                yield r == s.value() ? s : new PyStr(r);
            }
            case PyDict d -> {
                PyDict.Builder b = PyDict.builder();
                for (var e : d.entries()) b.put(key.redact(e.getKey()), redacted(e.getValue()));
                PyDict r = b.build();
                yield r.equals(d) ? d : r;
            }
            case PyList l -> {
                PyList r = PyList.of(l.items().stream().map(this::redacted).toList());
                yield r.equals(l) ? l : r;
            }
            case null -> null;
            default -> v;
        };
    }

    private HttpRequest request(String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint)
                .timeout(options.timeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        // Plain-HTTP local servers (vLLM, llama.cpp, Ollama) get HTTP/1.1 outright: the JDK would
        // otherwise attempt an h2c upgrade with the POST, which some of them mishandle.
        if ("http".equalsIgnoreCase(endpoint.getScheme())) b.version(HttpClient.Version.HTTP_1_1);
        wire.headers(key).forEach(b::header);
        return b.build();
    }

    private Exchange exchange(
            HttpRequest request, List<ModelCall> calls, int attempt, String recordedBody, long startedAt, long t0)
            throws InfrastructureFailure {
        CompletableFuture<HttpResponse<CappedBody.Body>> f =
                http.sendAsync(request, CappedBody.handler(options.maxResponseBytes()));
        try {
            // Belt and braces: JDK 25 applies the request timeout to the body as well, but earlier JDKs
            // stopped that timer once the headers arrived; this bounds the whole exchange regardless.
            HttpResponse<CappedBody.Body> r = f.get(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
            Optional<Duration> retryAfter = RetryPolicy.parseRetryAfter(
                    r.headers().firstValue("retry-after-ms"),
                    r.headers().firstValue("retry-after"),
                    effects.clock().instant());
            return new Exchange(
                    r.statusCode(), r.body().text(), retryAfter, null, r.body().overCap());
        } catch (TimeoutException e) {
            f.cancel(true);
            return timeout();
        } catch (ExecutionException e) {
            Throwable c = e.getCause() == null ? e : e.getCause();
            if (c instanceof HttpTimeoutException) return timeout();
            String kind = c instanceof IOException ? "connection error: " : "request failed: ";
            return new Exchange(0, null, Optional.empty(), kind + key.redact(transportError(c)), false);
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            calls.add(new ModelCall(
                    wire.name(),
                    options.model(),
                    attempt,
                    recordedBody,
                    0,
                    null,
                    "interrupted",
                    startedAt,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)));
            throw new InfrastructureFailure(describe() + ": interrupted", calls, null);
        }
    }

    /**
     * A transport failure with where it happened: the JDK's {@code ConnectException} has no message at all
     * (a refused connection read "java.net.ConnectException"), so the host and port are always named.
     */
    private String transportError(Throwable c) {
        String what = c.getMessage() == null || c.getMessage().isBlank()
                ? c.getClass().getName()
                : c.getClass().getName() + ": " + c.getMessage();
        if (c instanceof java.net.ConnectException && c.getMessage() == null) what += " (connection refused)";
        int port = endpoint.getPort() >= 0
                ? endpoint.getPort()
                : "https".equalsIgnoreCase(endpoint.getScheme()) ? 443 : 80;
        return what + " connecting to " + endpoint.getHost() + ":" + port;
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    private Exchange timeout() {
        return new Exchange(
                0, null, Optional.empty(), "timeout after " + options.timeout().toMillis() + " ms", false);
    }

    private String describe() {
        return wire.name() + " " + options.model();
    }

    @Override
    public String toString() {
        return "HttpProvider[" + wire.name() + ", model=" + options.model() + ", host=" + endpoint.getHost() + ", key="
                + key + "]";
    }
}
