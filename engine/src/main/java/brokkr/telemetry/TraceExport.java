package brokkr.telemetry;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * Where a run's spans go: its {@link GenAiTrace} and the exporter behind it, flushed and closed when the run
 * ends. The engine and the magics have only OpenTelemetry's API; the SDK and its exporters come with the kernel
 * (its {@code Tracing}), found as an {@link Opener} service, so that {@code %run --otel} and {@code experiment run
 * --otel} open their targets in one place and with one meaning.
 */
public interface TraceExport extends AutoCloseable {
    GenAiTrace trace();

    /** Sends what is still batched (bounded: a collector that is down ends no run). */
    @Override
    void close();

    /** No spans. */
    TraceExport OFF = new TraceExport() {
        @Override
        public GenAiTrace trace() {
            return GenAiTrace.OFF;
        }

        @Override
        public void close() {}
    };

    /** The SDK side: opens {@code --otel}'s target (null: the {@code OTEL_*} variables of {@code env} decide). */
    interface Opener {
        TraceExport open(String option, boolean content, Map<String, String> env);
    }

    /**
     * What {@code option} and {@code env} ask for, through the class path's {@link Opener}. Without one (the engine
     * or magics alone), an explicit target is refused rather than silently dropped; the environment's is ignored.
     */
    static TraceExport open(String option, boolean content, Map<String, String> env) {
        var opener = ServiceLoader.load(Opener.class, TraceExport.class.getClassLoader())
                .findFirst();
        if (opener.isPresent()) return opener.get().open(option, content, env);
        if (option != null && !option.equals("off"))
            throw new IllegalArgumentException(
                    "--otel needs OpenTelemetry's SDK, which comes with Brokkr's kernel and is not on this class path");
        return OFF;
    }
}
