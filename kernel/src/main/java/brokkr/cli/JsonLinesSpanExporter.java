package brokkr.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The SDK's finished spans as JSON lines appended to a file ({@code --otel file:PATH}), one span a line, for
 * reading without a collector ({@code jq}, a notebook). Each line has the OTLP JSON names of a span's fields
 * ({@code traceId}, {@code spanId}, {@code parentSpanId} (absent on a root), {@code name}, {@code kind},
 * {@code startTimeUnixNano}, {@code endTimeUnixNano}, {@code status} {@code {code, message}}), its
 * {@code attributes} as one flat object (key to value: string, number, boolean or array), the
 * {@code resource}'s attributes and the instrumentation {@code scope}'s name. Appending: a resumed run adds its
 * spans after the earlier ones.
 */
public final class JsonLinesSpanExporter implements SpanExporter {
    private static final JsonFactory JSON = new JsonFactory();

    private final Path file;
    private final Writer out;
    private boolean closed;

    public JsonLinesSpanExporter(Path file) throws IOException {
        this.file = file;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        this.out = Files.newBufferedWriter(
                file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized CompletableResultCode export(Collection<SpanData> spans) {
        if (closed) return CompletableResultCode.ofFailure();
        try {
            for (SpanData s : spans) {
                out.write(line(s));
                out.write('\n');
            }
            out.flush();
            return CompletableResultCode.ofSuccess();
        } catch (IOException e) {
            return CompletableResultCode.ofExceptionalFailure(e);
        }
    }

    /** One span as its JSON line (without the newline). */
    static String line(SpanData s) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("traceId", s.getTraceId());
            g.writeStringField("spanId", s.getSpanId());
            SpanContext parent = s.getParentSpanContext();
            if (parent.isValid()) g.writeStringField("parentSpanId", parent.getSpanId());
            g.writeStringField("name", s.getName());
            g.writeStringField("kind", s.getKind().name());
            g.writeNumberField("startTimeUnixNano", s.getStartEpochNanos());
            g.writeNumberField("endTimeUnixNano", s.getEndEpochNanos());
            g.writeObjectFieldStart("status");
            g.writeStringField("code", s.getStatus().getStatusCode().name());
            if (!s.getStatus().getDescription().isEmpty())
                g.writeStringField("message", s.getStatus().getDescription());
            g.writeEndObject();
            g.writeFieldName("attributes");
            attributes(g, s.getAttributes());
            g.writeFieldName("resource");
            attributes(g, s.getResource().getAttributes());
            g.writeObjectFieldStart("scope");
            g.writeStringField("name", s.getInstrumentationScopeInfo().getName());
            g.writeEndObject();
            g.writeEndObject();
        }
        return w.toString();
    }

    private static void attributes(JsonGenerator g, Attributes a) throws IOException {
        g.writeStartObject();
        for (Map.Entry<AttributeKey<?>, Object> e : a.asMap().entrySet()) {
            g.writeFieldName(e.getKey().getKey());
            value(g, e.getValue());
        }
        g.writeEndObject();
    }

    private static void value(JsonGenerator g, Object v) throws IOException {
        switch (v) {
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case Long l -> g.writeNumber(l);
            case Double d -> g.writeNumber(d);
            case List<?> list -> {
                g.writeStartArray();
                for (Object x : list) value(g, x);
                g.writeEndArray();
            }
            default -> g.writeString(String.valueOf(v));
        }
    }

    @Override
    public CompletableResultCode flush() {
        synchronized (this) {
            try {
                if (!closed) out.flush();
                return CompletableResultCode.ofSuccess();
            } catch (IOException e) {
                return CompletableResultCode.ofExceptionalFailure(e);
            }
        }
    }

    @Override
    public synchronized CompletableResultCode shutdown() {
        if (closed) return CompletableResultCode.ofSuccess();
        closed = true;
        try {
            out.close();
            return CompletableResultCode.ofSuccess();
        } catch (IOException e) {
            return CompletableResultCode.ofExceptionalFailure(e);
        }
    }
}
