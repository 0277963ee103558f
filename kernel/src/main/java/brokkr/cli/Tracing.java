package brokkr.cli;

import brokkr.telemetry.GenAiTrace;
import brokkr.telemetry.TraceExport;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where a run's OpenTelemetry GenAI spans go ({@link GenAiTrace}): nowhere unless asked. Asked by
 * {@code --otel TARGET} or the standard environment ({@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT},
 * else {@code OTEL_EXPORTER_OTLP_ENDPOINT}); {@code --otel off} or {@code OTEL_SDK_DISABLED=true} keeps
 * them off. A target is an OTLP/HTTP endpoint ({@code http://127.0.0.1:4318}: protobuf, {@code /v1/traces}
 * added to a base URL as the OTLP exporter spec says) or {@code file:PATH}, one span a JSON line appended
 * to PATH ({@link JsonLinesSpanExporter}). Prompts, completions and tool payloads are recorded only with
 * {@code --otel-content} or {@code OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true}.
 *
 * <p>The SDK and its exporters live here in the kernel, not in the engine: the engine makes its spans through
 * the OpenTelemetry API alone, so a library user of the engine chooses (or omits) the SDK, and the runner
 * without one costs nothing.
 */
public final class Tracing implements TraceExport {
    /** What {@code experiment run --help} says of the options. */
    public static final String OPTIONS = "[--otel URL|file:PATH|off] [--otel-content]";

    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

    private final SdkTracerProvider provider;
    private final GenAiTrace trace;
    private final String target;

    private Tracing(SdkTracerProvider provider, GenAiTrace trace, String target) {
        this.provider = provider;
        this.trace = trace;
        this.target = target;
    }

    /** No spans. */
    public static final Tracing OFF = new Tracing(null, GenAiTrace.OFF, null);

    /**
     * The tracing {@code option} (the {@code --otel} value, null when not given) and {@code env} ask for, with
     * content when {@code content} or the environment asks. A target that is neither a URL nor {@code file:PATH}
     * is refused with an {@link IllegalArgumentException} that says what is accepted.
     */
    public static Tracing open(String option, boolean content, Map<String, String> env) {
        if ("true".equalsIgnoreCase(env.getOrDefault("OTEL_SDK_DISABLED", ""))) return OFF;
        String target = option;
        boolean signalUrl = false;
        if (target == null) {
            target = blankToNull(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
            // The traces variable is the signal's own URL, used as it is; the general one is a base.
            signalUrl = target != null;
            if (target == null) target = blankToNull(env.get("OTEL_EXPORTER_OTLP_ENDPOINT"));
        }
        if (target == null || target.equals("off")) return OFF;
        boolean withContent = content
                || "true".equalsIgnoreCase(env.getOrDefault("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", ""));
        return of(
                exporter(target, signalUrl),
                withContent,
                env.getOrDefault("OTEL_SERVICE_NAME", "brokkr"),
                display(target));
    }

    /** Spans to {@code exporter} (a test's in-memory exporter), batched as a run's are. */
    public static Tracing of(SpanExporter exporter, boolean content, String serviceName, String target) {
        return of(BatchSpanProcessor.builder(exporter).build(), content, serviceName, target);
    }

    /** Spans to {@code processor}. */
    public static Tracing of(SpanProcessor processor, boolean content, String serviceName, String target) {
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE_NAME, serviceName))))
                .addSpanProcessor(processor)
                .build();
        OpenTelemetrySdk sdk =
                OpenTelemetrySdk.builder().setTracerProvider(provider).build();
        return new Tracing(provider, GenAiTrace.of(sdk, content), target);
    }

    static SpanExporter exporter(String target, boolean signalUrl) {
        if (target.startsWith("file:")) {
            String path = target.substring("file:".length());
            if (path.isEmpty()) throw new IllegalArgumentException("--otel file: needs a path: file:PATH");
            try {
                return new JsonLinesSpanExporter(Path.of(path));
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "--otel " + target + ": cannot open the trace file: " + e.getMessage());
            }
        }
        URI uri;
        try {
            uri = URI.create(target);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(notATarget(target));
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null)
            throw new IllegalArgumentException(notATarget(target));
        if (uri.getRawUserInfo() != null)
            throw new IllegalArgumentException("--otel " + uri.getScheme() + "://…@" + uri.getHost()
                    + ": an endpoint with credentials in it is refused (they would be logged with it)");
        String endpoint = target;
        if (!signalUrl) {
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (!path.endsWith("/v1/traces")) endpoint = stripSlash(target) + "/v1/traces";
        }
        return OtlpHttpSpanExporter.builder().setEndpoint(endpoint).build();
    }

    /** The target without a query or fragment (where a token could be), for messages. */
    private static String display(String target) {
        if (target.startsWith("file:")) return target;
        int cut = target.length();
        for (char c : new char[] {'?', '#'}) if (target.indexOf(c) >= 0) cut = Math.min(cut, target.indexOf(c));
        return target.substring(0, cut);
    }

    private static String notATarget(String target) {
        return "--otel " + target
                + ": give an OTLP/HTTP endpoint (http://127.0.0.1:4318), file:PATH (JSON lines) or off";
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    @Override
    public GenAiTrace trace() {
        return trace;
    }

    public boolean on() {
        return provider != null;
    }

    /** Where the spans go, as asked (for the run's last line); null when off. */
    public String target() {
        return target;
    }

    /** Sends what is still batched, the exporter kept open (at most 10 s). */
    public void flush() {
        if (provider == null) return;
        provider.forceFlush().join(10, TimeUnit.SECONDS);
    }

    /** Sends what is still batched and stops the exporter (at most 10 s: a collector that is down ends no run). */
    @Override
    public void close() {
        if (provider == null) return;
        CompletableResultCode done = provider.shutdown();
        done.join(10, TimeUnit.SECONDS);
    }

    /** {@link TraceExport}'s service: {@code %run --otel} opens its target here, as {@code experiment run} does. */
    public static final class Opener implements TraceExport.Opener {
        @Override
        public TraceExport open(String option, boolean content, Map<String, String> env) {
            return Tracing.open(option, content, env);
        }
    }
}
