package brokkr.cli;

import brokkr.domains.tau2.runner.Tau2Domains;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.bench.LoopBench;
import brokkr.bench.WorldBench;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./brokkr bench ...}: performance measurements, never timed tests. {@code world} runs the
 * world-value benchmarks (load, fork, updates, hashing); {@code replay} times a tau2 corpus replay and
 * compares it with upstream's own replay time recorded in the conformance README, side by side.
 */
public record BenchCommand() implements Command {
    @Override public String name() { return "bench"; }

    @Override public String summary() { return "benchmarks: world values (JMH), tau2 corpus replay vs upstream, loop depth scaling"; }

    @Override public String usage() {
        return """
               usage: ./brokkr bench world [--quick | --long] [--db retail|airline] [--only NAME] [--no-jmh]
                      ./brokkr bench replay --domain DOMAIN --corpus FILE [--repeat N] [--threads T]
                      ./brokkr bench loop [--depths 1000,4000,16000,64000,100000] [--max-seconds S]

               world   loads tau2 db.json worlds and measures load, fork, 1,000 random updates and full /
                       incremental hashing (JMH plus an in-process CPU-time table).
               replay  replays a tau2 conformance corpus N times (default 5) in one warm JVM with T worker
                       threads (default: the number of cores) and prints the best wall time, time per call,
                       the hashing share, and the ratio to upstream's recorded replay time for that corpus
                       (the timing table of the corpus folder's README).
               loop    pointer chasing with the scripted ideal follower at each depth: wall time, time per
                       hop, bytes allocated and heap retained, for the agent loop (./brokkr loop N) and for
                       the evaluation path of a loop cell (depths up to 10000); a depth slower than S
                       seconds (default 120) ends the series.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty()) throw new UsageException("missing benchmark (world, replay or loop)");
        List<String> rest = args.subList(1, args.size());
        return switch (args.get(0)) {
            case "world" -> WorldBench.run(rest, out);
            case "replay" -> replay(rest, out);
            case "loop" -> {
                try {
                    yield LoopBench.run(rest, out);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            default -> throw new UsageException("unknown benchmark '" + args.get(0) + "'");
        };
    }

    private static int replay(List<String> args, PrintStream out) throws IOException {
        String domain = null, corpus = null;
        int repeat = 5, threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : null;
            switch (a) {
                case "--domain" -> { domain = need(a, v); i++; }
                case "--corpus" -> { corpus = need(a, v); i++; }
                case "--repeat" -> { repeat = positive(a, need(a, v)); i++; }
                case "--threads" -> { threads = positive(a, need(a, v)); i++; }
                default -> throw new UsageException("unexpected argument '" + a + "'");
            }
        }
        if (domain == null || corpus == null) throw new UsageException("replay needs --domain and --corpus");
        Path file = Path.of(corpus);
        if (!Files.isRegularFile(file)) throw new UsageException("no such corpus file: " + corpus);
        Tau2Conformance.EnvironmentFactory factory = Tau2Domains.factory(domain);
        if (factory == null) throw new UsageException("unknown tau2 domain '" + domain + "'");
        Double upstream = upstreamSeconds(file);

        out.printf(Locale.ROOT, "%-6s %-8s %10s %12s %10s%n", "run", "threads", "wall ms", "µs/call", "hash ms");
        Tau2Conformance.Report best = null;
        List<Integer> threadCounts = threads == 1 ? List.of(1) : List.of(1, threads);
        List<Tau2Conformance.Report> bests = new ArrayList<>();
        for (int t : threadCounts) {
            Tau2Conformance.Report bestForT = null;
            for (int r = 0; r < repeat; r++) {
                Tau2Conformance.Report rep = Tau2Conformance.run(factory, file, null, t);
                if (rep.mismatches() != 0) {
                    out.println("replay has " + rep.mismatches() + " mismatches: run ./brokkr conformance first");
                    return 1;
                }
                out.printf(Locale.ROOT, "%-6d %-8d %10d %12.1f %10d%n", r + 1, t, rep.millis(),
                        rep.millis() * 1000.0 / rep.calls(), rep.hashMillis());
                if (bestForT == null || rep.millis() < bestForT.millis()) bestForT = rep;
            }
            bests.add(bestForT);
            if (best == null || bestForT.millis() < best.millis()) best = bestForT;
        }
        out.println();
        for (int k = 0; k < threadCounts.size(); k++) {
            Tau2Conformance.Report b = bests.get(k);
            double share = b.hashMillis() / (double) (b.millis() * threadCounts.get(k));
            out.printf(Locale.ROOT, "best with %d thread(s): %d sequences, %d calls in %d ms = %.1f µs/call; hashing %.0f%% of worker time%n",
                    threadCounts.get(k), b.sequences(), b.calls(), b.millis(), b.millis() * 1000.0 / b.calls(), 100 * Math.min(1.0, share));
            if (upstream != null) {
                out.printf(Locale.ROOT, "  upstream replay (conformance README): %.3f s -> %.0fx faster%n",
                        upstream, upstream * 1000.0 / Math.max(1, b.millis()));
            }
        }
        return 0;
    }

    /** The wall seconds of the README's "Upstream timings" row naming this corpus file. */
    static Double upstreamSeconds(Path corpus) throws IOException {
        Path dir = corpus.toAbsolutePath().getParent();
        String domain = dir.getFileName().toString();
        Path readme = dir.getParent().resolve("README.md");
        if (!Files.isRegularFile(readme)) return null;
        String needle = "/" + domain + "/" + corpus.getFileName();
        boolean inTimings = false;
        for (String line : Files.readAllLines(readme)) {
            if (line.startsWith("## ")) inTimings = line.startsWith("## Upstream timings");
            if (!inTimings || !line.startsWith("|") || !line.contains(needle + " ")) continue;
            String[] cells = line.split("\\|");
            String last = cells[cells.length - 1].isBlank() ? cells[cells.length - 2] : cells[cells.length - 1];
            try {
                return Double.parseDouble(last.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static String need(String flag, String v) {
        if (v == null) throw new UsageException(flag + " needs a value");
        return v;
    }

    private static int positive(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " must be a positive integer, got '" + v + "'");
        }
    }
}
