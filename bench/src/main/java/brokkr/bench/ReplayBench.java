package brokkr.bench;

import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.world.WorldHash;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./brokkr bench replay}: a tau2 conformance corpus replayed in one warm JVM (every call, every
 * recorded hash compared, as {@code ./brokkr conformance tau2} does), for any registered tau2 domain,
 * against two yardsticks measured or recorded for the same work:
 * <ul>
 *   <li><b>upstream</b>: the wall time of upstream's own replay of that corpus ({@link #UPSTREAM});</li>
 *   <li><b>the SHA-256 floor</b>: checking every write's hash means digesting upstream's sorted JSON
 *       of the world after it, which no implementation can avoid. The replay counts the bytes its world
 *       hashes fed to SHA-256 ({@link WorldHash#digestedBytes()}); right after each run, {@link MessageDigest}
 *       digests as many bytes on as many threads (large updates of one buffer: SHA-256's throughput
 *       alone). The replay's wall time over the floor's is what the replay costs beyond hashing, plus one.</li>
 *   <li><b>the full-hash floor</b>: the same for the whole text of every world hash computed
 *       ({@link WorldHash#hashedTextBytes()}), what a hash that digests each world from its first byte (as
 *       upstream's {@code get_dict_hash} does) cannot go below; the digest checkpoints, resuming a world's
 *       digest after the prefix it shares with a world hashed before, are what puts the replay under it.
 *       Its time is the floor's scaled by the two byte counts (SHA-256 over 64 KiB updates is linear in
 *       the bytes).</li>
 * </ul>
 * After untimed warm-up replays (at least two and a second's worth), each thread count (1 and the
 * requested one) runs {@code --repeat} times, each from a collected heap;
 * the summary takes the best run and the best floor of that thread count (the least disturbed figures
 * on a shared machine).
 */
public final class ReplayBench {
    private ReplayBench() {}

    /**
     * Upstream's recorded replay of a corpus: {@code replay.py DOMAIN FILE}, one process, tau2-bench
     * {@code a2c024725189473d2d7cea3a5cfdbcc67478e41f} on CPython 3.13.5, a 2-vCPU machine (module import
     * and task loading excluded; environment construction and hashing included).
     */
    public record UpstreamTime(String domain, String file, int records, int calls, double seconds) {}

    /**
     * The table "Upstream timings (performance anchor)" of {@code shared/conformance/tau2/README.md}, its
     * rows for Brokkr's tau2 domains (upstream recorded no airline fuzz replay: it was stopped unfinished
     * after more than 500 s). A corpus is compared only when its name, record count and call count are
     * those of a row.
     */
    public static final List<UpstreamTime> UPSTREAM = List.of(
            new UpstreamTime("retail", "gold.jsonl", 114, 550, 26.565),
            new UpstreamTime("retail", "fuzz-seed11.jsonl", 800, 5644, 200.751),
            new UpstreamTime("airline", "gold.jsonl", 50, 142, 26.384),
            new UpstreamTime("telecom", "gold.jsonl", 114, 516, 0.551),
            new UpstreamTime("telecom", "fuzz-seed11.jsonl", 1000, 6529, 5.504),
            new UpstreamTime("banking_knowledge", "gold.jsonl", 97, 955, 7.532),
            new UpstreamTime("banking_knowledge", "fuzz-seed11.jsonl", 1000, 7085, 33.035),
            new UpstreamTime("banking_knowledge", "kb-search-seed11.jsonl", 340, 1994, 29.572));

    /** Upstream's time for this replay, if the README recorded one for the same corpus. */
    public static Optional<UpstreamTime> upstream(String domain, Path corpus, int records, int calls) {
        String name = corpus.getFileName().toString();
        return UPSTREAM.stream()
                .filter(u -> u.domain().equals(domain)
                        && u.file().equals(name)
                        && u.records() == records
                        && u.calls() == calls)
                .findFirst();
    }

    /**
     * One replay: its wall time, time in world hashes (summed over workers), bytes digested, bytes of the
     * hashed worlds' whole texts, and the floor measured after it.
     */
    public record Run(
            int threads,
            int index,
            long wallNanos,
            long hashNanos,
            long digestedBytes,
            long hashedTextBytes,
            long floorNanos) {
        public double floorRatio() {
            return wallNanos / (double) floorNanos;
        }

        /** The full-hash floor: the floor's time scaled to the whole texts' bytes. */
        public long fullFloorNanos() {
            return Math.max(1, Math.round(floorNanos * (hashedTextBytes / (double) Math.max(1, digestedBytes))));
        }
    }

    /** The best run of a thread count against the best floors measured for it. */
    public record Summary(int threads, Run best, long floorNanos, long fullFloorNanos) {
        public double floorRatio() {
            return best.wallNanos() / (double) floorNanos;
        }

        public double fullFloorRatio() {
            return best.wallNanos() / (double) fullFloorNanos;
        }
    }

    public record Report(
            String domain,
            Path corpus,
            int sequences,
            int calls,
            List<Run> runs,
            List<Summary> summaries,
            Optional<UpstreamTime> upstream) {}

    /** A replay that differs from its corpus: nothing to time. */
    public static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out));
    }

    /** The command: {@code --domain D --corpus FILE [--repeat N] [--threads T]}; a bad argument is an IllegalArgumentException. */
    public static int run(List<String> args, PrintStream out) {
        String domain = null, corpus = null;
        int repeat = 5, threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : null;
            switch (a) {
                case "--domain" -> domain = need(a, v);
                case "--corpus" -> corpus = need(a, v);
                case "--repeat" -> repeat = positive(a, need(a, v));
                case "--threads" -> threads = positive(a, need(a, v));
                default -> throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            i++;
        }
        if (domain == null || corpus == null) throw new IllegalArgumentException("replay needs --domain and --corpus");
        Path file = Path.of(corpus);
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("no such corpus file: " + corpus);
        if (!Tau2Domains.names().contains(domain)) {
            throw new IllegalArgumentException(
                    "unknown tau2 domain '" + domain + "' (available: " + String.join(", ", Tau2Domains.names()) + ")");
        }
        Tau2Conformance.EnvironmentFactory factory = Tau2Domains.factory(domain);
        Report report;
        try {
            report = measure(factory, domain, file, repeat, threads == 1 ? List.of(1) : List.of(1, threads), out);
        } catch (Mismatch e) {
            out.println(e.getMessage());
            return 1;
        }
        out.println();
        out.print(summary(report));
        return 0;
    }

    /**
     * Replays {@code corpus} {@code repeat} times per thread count, measuring the floor after each run;
     * prints a row per run to {@code out} (null: quiet).
     */
    public static Report measure(
            Tau2Conformance.EnvironmentFactory factory,
            String domain,
            Path corpus,
            int repeat,
            List<Integer> threadCounts,
            PrintStream out) {
        floorNanos(64L << 20, threadCounts.getLast()); // SHA-256's compiled intrinsic, before anything is timed
        // Untimed replays until the JIT has seen the replay: at least two, and at least a second of them.
        long warmUntil = System.nanoTime() + 1_000_000_000L;
        for (int w = 0; w < 2 || System.nanoTime() < warmUntil; w++) {
            if (Tau2Conformance.run(factory, corpus, null, threadCounts.get(w % threadCounts.size()))
                            .mismatches()
                    != 0) {
                throw new Mismatch("replay has mismatches: run ./brokkr conformance tau2 --domain " + domain
                        + " --corpus " + corpus + " first");
            }
        }
        List<Run> runs = new ArrayList<>();
        int sequences = 0, calls = 0;
        for (int t : threadCounts) {
            for (int r = 1; r <= repeat; r++) {
                System.gc(); // each run starts from a collected heap (as JMH's -gc true): not the previous run's
                // garbage
                long bytes0 = WorldHash.digestedBytes(), text0 = WorldHash.hashedTextBytes();
                long t0 = System.nanoTime();
                Tau2Conformance.Report rep = Tau2Conformance.run(factory, corpus, null, t);
                long wall = System.nanoTime() - t0;
                long bytes = WorldHash.digestedBytes() - bytes0, text = WorldHash.hashedTextBytes() - text0;
                if (rep.mismatches() != 0) {
                    throw new Mismatch(
                            "replay has " + rep.mismatches() + " mismatches: run ./brokkr conformance tau2 --domain "
                                    + domain + " --corpus " + corpus + " first");
                }
                Run run = new Run(t, r, wall, rep.hashMillis() * 1_000_000, bytes, text, floorNanos(bytes, t));
                runs.add(run);
                sequences = rep.sequences();
                calls = rep.calls();
                if (out != null) {
                    if (runs.size() == 1) { // after the first run: a corpus that cannot be replayed prints no table
                        out.printf(
                                Locale.ROOT,
                                "%-4s %-7s %9s %9s %9s %12s %9s %8s %8s %8s%n",
                                "run",
                                "threads",
                                "wall ms",
                                "µs/call",
                                "hash ms",
                                "digested MB",
                                "floor ms",
                                "x floor",
                                "text MB",
                                "x full");
                    }
                    out.printf(
                            Locale.ROOT,
                            "%-4d %-7d %9.0f %9.1f %9d %12.1f %9.0f %8.2f %8.1f %8.2f%n",
                            r,
                            t,
                            wall / 1e6,
                            wall / 1e3 / rep.calls(),
                            rep.hashMillis(),
                            bytes / 1e6,
                            run.floorNanos() / 1e6,
                            run.floorRatio(),
                            text / 1e6,
                            wall / (double) run.fullFloorNanos());
                }
            }
        }
        List<Summary> summaries = new ArrayList<>();
        for (int t : threadCounts) {
            List<Run> mine = runs.stream().filter(x -> x.threads() == t).toList();
            Run best = mine.stream()
                    .min((a, b) -> Long.compare(a.wallNanos(), b.wallNanos()))
                    .orElseThrow();
            long floor = mine.stream().mapToLong(Run::floorNanos).min().orElseThrow();
            long fullFloor = mine.stream().mapToLong(Run::fullFloorNanos).min().orElseThrow();
            summaries.add(new Summary(t, best, floor, fullFloor));
        }
        return new Report(
                domain,
                corpus,
                sequences,
                calls,
                List.copyOf(runs),
                List.copyOf(summaries),
                upstream(domain, corpus, sequences, calls));
    }

    /** The summary table: per thread count the best replay, its bytes, the floor and both ratios. */
    public static String summary(Report r) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(
                Locale.ROOT,
                "%s %s: %d sequences, %d calls, 0 mismatches; best of %d run(s) per thread count%n",
                r.domain(),
                r.corpus().getFileName(),
                r.sequences(),
                r.calls(),
                r.runs().size() / r.summaries().size()));
        s.append(String.format(
                Locale.ROOT,
                "%-7s %9s %9s %12s %9s %8s %8s %13s %8s %11s %10s%n",
                "threads",
                "wall ms",
                "µs/call",
                "digested MB",
                "floor ms",
                "x floor",
                "text MB",
                "full floor ms",
                "x full",
                "upstream s",
                "x faster"));
        for (Summary m : r.summaries()) {
            double wallMs = m.best().wallNanos() / 1e6;
            s.append(String.format(
                    Locale.ROOT,
                    "%-7d %9.0f %9.1f %12.1f %9.0f %8.2f %8.1f %13.0f %8.2f %11s %10s%n",
                    m.threads(),
                    wallMs,
                    wallMs * 1000 / r.calls(),
                    m.best().digestedBytes() / 1e6,
                    m.floorNanos() / 1e6,
                    m.floorRatio(),
                    m.best().hashedTextBytes() / 1e6,
                    m.fullFloorNanos() / 1e6,
                    m.fullFloorRatio(),
                    r.upstream()
                            .map(u -> String.format(Locale.ROOT, "%.3f", u.seconds()))
                            .orElse("-"),
                    r.upstream()
                            .map(u -> String.format(Locale.ROOT, "%.0f", u.seconds() * 1000 / wallMs))
                            .orElse("-")));
        }
        s.append(
                "x floor: replay wall time / the wall time of MessageDigest SHA-256 over the bytes the replay digested, same threads\n");
        s.append(
                "x full: replay wall time / the full-hash floor, SHA-256 over the whole text of every world hashed (text MB; the floor scaled)\n");
        s.append(
                r.upstream().isPresent()
                        ? "upstream s: replay.py of this corpus (shared/conformance/tau2/README.md, \"Upstream timings\"); x faster: upstream s / wall\n"
                        : "upstream: no recorded replay of this corpus (shared/conformance/tau2/README.md, \"Upstream timings\")\n");
        return s.toString();
    }

    /** Block size of the floor's updates: large enough that per-call overhead vanishes next to the compression. */
    private static final int FLOOR_CHUNK = 1 << 16;

    private static final byte[] FLOOR_DATA = new byte[FLOOR_CHUNK];

    static {
        new Random(11).nextBytes(FLOOR_DATA);
    }

    /**
     * Wall nanoseconds for {@code threads} threads to SHA-256 {@code bytes} bytes between them (each its
     * share, started together), with one {@code digest()} per thread.
     */
    public static long floorNanos(long bytes, int threads) {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long share = bytes / threads + (t == 0 ? bytes % threads : 0);
            workers.add(Thread.ofPlatform().start(() -> {
                MessageDigest md = WorldHash.newSha256();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (long left = share; left > 0; left -= FLOOR_CHUNK)
                    md.update(FLOOR_DATA, 0, (int) Math.min(FLOOR_CHUNK, left));
                md.digest();
            }));
        }
        long t0 = System.nanoTime();
        go.countDown();
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while measuring the SHA-256 floor", e);
            }
        }
        return Math.max(1, System.nanoTime() - t0);
    }

    static String need(String flag, String v) {
        if (v == null) throw new IllegalArgumentException(flag + " needs a value");
        return v;
    }

    static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a positive integer, got '" + v + "'");
        }
    }
}
