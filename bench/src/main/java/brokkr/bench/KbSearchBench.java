package brokkr.bench;

import brokkr.domains.tau2.banking.BankingDomain;
import brokkr.domains.tau2.banking.Bm25Index;
import brokkr.domains.tau2.banking.KnowledgeBase;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Environment;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./brokkr bench kb-search}: banking_knowledge's {@code KB_search} beside upstream's figures
 * (shared/conformance/tau2/README.md, "KB_search / BM25", measured with {@code kb_facts.py}):
 * <ul>
 *   <li><b>index build</b>: {@link Bm25Index} over the 698 documents (tokenising every content and
 *       building the Lucene index and the BM25 statistics), median of 10 (min / max) after warm-up, as
 *       upstream's {@code BM25Indexer.process} median of 10;</li>
 *   <li><b>latency</b>: {@code Environment.get_response} of every assistant {@code KB_search} call of
 *       {@code kb-search-seed11.jsonl} (1692 calls, argument errors included), each in its record's
 *       environment, in a warm JVM; p50 and p99 at sorted index {@code floor(q * n)} as upstream, mean
 *       and max, of the last of {@code --rounds} rounds (default 5), and of the best round.</li>
 * </ul>
 */
public final class KbSearchBench {
    private KbSearchBench() {}

    /** Upstream's figures (README "KB_search / BM25"), in milliseconds. */
    public static final double UPSTREAM_BUILD_MS = 28.7,
            UPSTREAM_P50_MS = 0.614,
            UPSTREAM_P99_MS = 113.2,
            UPSTREAM_MEAN_MS = 3.39,
            UPSTREAM_MAX_MS = 139.3;

    /** One {@code KB_search} call of the corpus with the environment it runs in. */
    private record Call(String initTaskId, PyDict envKwargs, PyDict arguments) {}

    /** Latency statistics of one round, milliseconds. */
    public record Latency(int calls, double p50, double p99, double mean, double max) {}

    /** Build-time statistics, milliseconds. */
    public record Build(double median, double min, double max) {}

    public record Report(Build build, Latency last, Latency best, int rounds) {}

    public static int run(List<String> args, PrintStream out) {
        int rounds = 5;
        String corpus = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--rounds" -> rounds = positive(a, value(args, ++i, a));
                case "--corpus" -> corpus = value(args, ++i, a);
                default ->
                    throw new IllegalArgumentException(
                            "unknown option '" + a + "' (kb-search [--rounds N] [--corpus FILE])");
            }
        }
        Path file = corpus != null
                ? Path.of(corpus)
                : brokkr.data.DataDirs.findUpwards("conformance/tau2/banking_knowledge", "kb-search-seed11.jsonl")
                        .orElseThrow(() ->
                                new IllegalArgumentException("no kb-search-seed11.jsonl found (pass --corpus FILE)"))
                        .resolve("kb-search-seed11.jsonl");
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("no such corpus: " + file);
        Report r = measure(BankingDomain.load(), file, rounds);
        out.print(format(r));
        return 0;
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) throw new IllegalArgumentException(option + " needs a value");
        return args.get(i);
    }

    private static int positive(String option, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a positive integer, got '" + v + "'");
        }
    }

    public static Report measure(BankingDomain domain, Path corpus, int rounds) {
        List<String> contents = domain.knowledgeBase().docs().stream()
                .map(KnowledgeBase.Doc::content)
                .toList();
        for (int i = 0; i < 5; i++) new Bm25Index(contents); // warm-up
        double[] builds = new double[10];
        for (int i = 0; i < builds.length; i++) {
            long t = System.nanoTime();
            new Bm25Index(contents);
            builds[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(builds);
        Build build = new Build((builds[4] + builds[5]) / 2, builds[0], builds[builds.length - 1]);

        List<Call> calls = calls(corpus);
        Tau2Conformance.EnvironmentFactory factory = domain.factory();
        Latency last = null, best = null;
        for (int round = 0; round < rounds + 1; round++) {
            double[] ms = new double[calls.size()];
            int i = 0;
            for (Call c : calls) {
                Tau2Environment env = c.envKwargs() == null
                        ? factory.create(c.initTaskId(), null)
                        : factory.create(c.initTaskId(), null, c.envKwargs());
                long t = System.nanoTime();
                env.getResponse("KB_search", c.arguments(), "assistant");
                ms[i++] = (System.nanoTime() - t) / 1e6;
            }
            if (round == 0) continue; // the first pass warms the JIT
            Latency l = stats(ms);
            last = l;
            if (best == null || l.p99() < best.p99()) best = l;
        }
        return new Report(build, last, best, rounds);
    }

    private static List<Call> calls(Path corpus) {
        List<Call> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(corpus)) {
                if (line.isBlank()) continue;
                PyDict r = Json.parse(line).asDict();
                Value init = r.get("init_task_id");
                String task = init == null || init.isNone() ? null : init.asStr();
                PyDict kwargs = r.get("env_kwargs_extra") instanceof PyDict d ? d : null;
                for (Value v : r.get("calls").asList()) {
                    PyDict c = v.asDict();
                    if (c.get("name").asStr().equals("KB_search")
                            && c.get("requestor").asStr().equals("assistant")) {
                        out.add(new Call(task, kwargs, c.get("arguments").asDict()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + corpus, e);
        }
        return out;
    }

    static Latency stats(double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        double sum = 0;
        for (double x : s) sum += x;
        int n = s.length;
        return new Latency(n, s[(int) Math.floor(0.5 * n)], s[(int) Math.floor(0.99 * n)], sum / n, s[n - 1]);
    }

    static String format(Report r) {
        StringBuilder s = new StringBuilder();
        s.append(
                "KB_search (banking_knowledge, bm25): Brokkr vs upstream (shared/conformance/tau2/README.md, \"KB_search / BM25\")\n");
        s.append(String.format(
                Locale.ROOT, "%-34s %12s %12s %10s%n", "measurement", "Brokkr ms", "upstream ms", "x faster"));
        row(s, "index build, median of 10", r.build().median(), UPSTREAM_BUILD_MS);
        s.append(String.format(
                Locale.ROOT,
                "%-34s %12s%n",
                "  (min / max)",
                String.format(
                        Locale.ROOT, "%.2f / %.2f", r.build().min(), r.build().max())));
        Latency l = r.last();
        row(s, "KB_search p50 (" + l.calls() + " calls)", l.p50(), UPSTREAM_P50_MS);
        row(s, "KB_search p99", l.p99(), UPSTREAM_P99_MS);
        row(s, "KB_search mean", l.mean(), UPSTREAM_MEAN_MS);
        row(s, "KB_search max", l.max(), UPSTREAM_MAX_MS);
        row(s, "best round p99 (of " + r.rounds() + ")", r.best().p99(), UPSTREAM_P99_MS);
        s.append(
                "latency: Environment.get_response of each assistant KB_search call of kb-search-seed11.jsonl in its record's environment, "
                        + "last round after one warm-up round; percentiles at sorted index floor(q*n), as upstream\n");
        return s.toString();
    }

    private static void row(StringBuilder s, String what, double ms, double upstream) {
        s.append(String.format(Locale.ROOT, "%-34s %12.4f %12.3f %10.1f%n", what, ms, upstream, upstream / ms));
    }
}
