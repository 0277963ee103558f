package brokkr.bench;

import brokkr.cli.Tracing;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.Evaluation;
import brokkr.experiment.Planner;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./brokkr bench otel}: what the OpenTelemetry GenAI spans cost a run, on tau2 episodes played by the
 * scripted gold agent and user (no model, no wire: the engine's own per-episode work, so the spans' share is as
 * large as it can be; with a real model's seconds per call it is noise). Three modes, interleaved within each round
 * so that drift and JIT state hit them alike: tracing off (the default: {@link Policy#of}), on (spans built and
 * exported through the SDK's batch processor, as {@code --otel} does, to an exporter that counts and drops them),
 * and on with content capture ({@code --otel-content}: prompts, completions and tool payloads as attributes).
 * Best of the rounds, per episode; the ratios are against off.
 *
 * <p>Arguments: {@code --domain D} (default retail), {@code --tasks N} (default 20: the first N test tasks with
 * gold actions), {@code --rounds R} (default 7).
 */
public final class OtelBench {
    private OtelBench() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(Arrays.asList(args), System.out));
    }

    /** One mode's best time per episode and the spans one run of the plan made. */
    public record Row(String mode, double microsPerEpisode, long spansPerRun) {}

    public static int run(List<String> args, PrintStream out) throws Exception {
        String domain = "retail";
        int tasks = 20, rounds = 7;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i), v = i + 1 < args.size() ? args.get(i + 1) : null;
            if (v == null) throw new IllegalArgumentException(a + " needs a value");
            switch (a) {
                case "--domain" -> domain = v;
                case "--tasks" -> tasks = positive(a, v);
                case "--rounds" -> rounds = positive(a, v);
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + a + " (expected --domain D, --tasks N or --rounds R)");
            }
            i++;
        }
        Tau2Benchmark b = Tau2Domains.benchmark(domain);
        Plan plan = goldPlan(b, tasks);
        List<Row> rows = measure(plan, rounds);
        int episodes = plan.units().size();
        out.printf(
                Locale.ROOT,
                "tau2-%s, %d gold episodes (scripted agent and user) per run, serial; modes interleaved, best of %d rounds%n%n",
                domain,
                episodes,
                rounds);
        out.printf(Locale.ROOT, "%-22s %14s %12s %10s%n", "mode", "µs/episode", "spans/run", "vs off");
        double off = rows.getFirst().microsPerEpisode();
        for (Row r : rows)
            out.printf(
                    Locale.ROOT,
                    "%-22s %14.1f %12d %9.3fx%n",
                    r.mode(),
                    r.microsPerEpisode(),
                    r.spansPerRun(),
                    r.microsPerEpisode() / off);
        return 0;
    }

    /** The first {@code n} test tasks with gold actions, each a cell of the scripted gold agent. */
    static Plan goldPlan(Tau2Benchmark b, int n) {
        List<Plan.Unit> units = new ArrayList<>();
        for (String id : b.tasks("test")) {
            if (units.size() == n) break;
            var t = b.domain().task(id);
            if (t.criteria() == null || t.criteria().actionsOrEmpty().isEmpty()) continue;
            var cell = new Evaluation.Cell(
                    b, b.environment(id, Map.of()), AgentDef.of(ProbeBench.GOLD, "tools", null), null, 0);
            units.add(new Plan.Unit(cell, "gold"));
        }
        if (units.isEmpty()) throw new IllegalArgumentException(b.name() + " has no test task with gold actions");
        return Planner.of(units, ProbeBench.NO_MODELS);
    }

    /** The three modes, interleaved in each of {@code rounds} rounds after a warm-up round. */
    static List<Row> measure(Plan plan, int rounds) throws Exception {
        CountingExporter spans = new CountingExporter(), spansWithContent = new CountingExporter();
        try (Tracing on = Tracing.of(spans, false, "brokkr-bench", "bench");
                Tracing content = Tracing.of(spansWithContent, true, "brokkr-bench", "bench")) {
            List<Policy> policies = List.of(
                    Policy.of(1),
                    Policy.of(1).withTrace(on.trace()),
                    Policy.of(1).withTrace(content.trace()));
            List<String> names = List.of("off (default)", "on (--otel)", "on, content captured");
            double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
            long[] perRun = new long[3];
            for (int r = 0; r <= rounds; r++) {
                for (int m = 0; m < 3; m++) {
                    CountingExporter counter = m == 1 ? spans : m == 2 ? spansWithContent : null;
                    long before = counter == null ? 0 : counter.flushedCount(m == 1 ? on : content);
                    long t0 = System.nanoTime();
                    List<Attempt> attempts = Runner.attempts(plan, policies.get(m));
                    double us = (System.nanoTime() - t0) / 1e3 / attempts.size();
                    for (Attempt a : attempts)
                        if (a.reward() != 1.0)
                            throw new IllegalStateException("gold scored " + a.reward() + " under " + names.get(m));
                    // The batch processor exports on its own thread: flushed outside the timing, counted to show the
                    // spans were really made (and so that a mode that silently made none could not pass for cheap).
                    if (counter != null) perRun[m] = counter.flushedCount(m == 1 ? on : content) - before;
                    if (r > 0) best[m] = Math.min(best[m], us);
                }
            }
            if (perRun[1] == 0 || perRun[2] == 0) throw new IllegalStateException("tracing on made no spans");
            List<Row> rows = new ArrayList<>();
            for (int m = 0; m < 3; m++) rows.add(new Row(names.get(m), best[m], perRun[m]));
            return rows;
        }
    }

    /** Counts and drops: the SDK's export path without I/O. */
    private static final class CountingExporter implements SpanExporter {
        private final AtomicLong count = new AtomicLong();

        long flushedCount(Tracing tracing) {
            tracing.flush();
            return count.get();
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> batch) {
            count.addAndGet(batch.size());
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    private static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) return n;
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException(flag + " needs a positive integer, got '" + v + "'");
    }
}
