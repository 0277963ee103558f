package brokkr.bench;

import brokkr.domains.bfcl.multiturn.Executor;
import brokkr.domains.bfcl.multiturn.MultiTurnConformance;
import brokkr.domains.bfcl.multiturn.MultiTurnData;
import brokkr.domains.bfcl.multiturn.MultiTurnVerdicts;
import brokkr.domains.bfcl.multiturn.TaskSetup;
import brokkr.domains.bfcl.multiturn.World;
import brokkr.domains.conformance.CorpusStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./brokkr bench multi-turn}: the BFCL multi-turn conformance corpora in one warm JVM, best of N, beside
 * upstream's recorded timings ({@link #UPSTREAM}), and the fork cost of a task's world.
 *
 * <p>Replay ({@code gold-exec}, {@code fuzz-seed11}) and grading ({@code verdicts-seed7}) run exactly as
 * {@code ./brokkr conformance bfcl-multi-turn} does: every result, state and verdict field compared. Brokkr's
 * time includes reading the gzip JSON Lines corpus (upstream's excludes parsing), so it is the figure to set beside
 * upstream's "with verification" column; the ratio to upstream's "upstream" column (its calls alone) is printed too.
 *
 * <p>Fork: a task's initial world (every involved instance created from {@code initial_config}, as upstream's first
 * {@code execute_multi_turn_func_call}) is forked 1,000 times and each fork runs the task's first ground-truth turn,
 * so every fork diverges; printed: the time per fork-and-turn, and the heap retained by the 1,000 diverged forks
 * against the heap of the one initial world (what the forks share is not counted again).
 */
public final class MultiTurnBench {
    private MultiTurnBench() {}

    static final String MODEL = "gpt-4.1-2025-04-14-FC";
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /**
     * A row of "Timing (upstream, one process)" in {@code shared/conformance/bfcl/multi_turn/README.md}: medians of
     * 3 runs, CPython 3.11.7, a 2-vCPU AMD EPYC machine.
     */
    public record UpstreamTime(String file, int records, double upstreamSeconds, double verifiedSeconds) {}

    public static final List<UpstreamTime> UPSTREAM = List.of(
            new UpstreamTime("gold-exec.jsonl.gz", 800, 2.06, 3.07),
            new UpstreamTime("fuzz-seed11.jsonl.gz", 12_000, 14.90, 24.69),
            new UpstreamTime("verdicts-seed7.jsonl.gz", 7_960, 11.00, 14.50));

    /** The best of {@code repeat} runs of one corpus on {@code threads} workers, and on one thread. */
    public record CorpusTime(
            UpstreamTime upstream, int records, long calls, int threads, long bestNanos, long bestOneThreadNanos) {
        public double seconds() {
            return bestNanos / 1e9;
        }

        public double oneThreadSeconds() {
            return bestOneThreadNanos / 1e9;
        }
    }

    /** Fork cost of one task's world. */
    public record ForkCost(
            String taskId, int forks, long buildNanos, long nanosPerFork, long worldBytes, long forksBytes) {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out));
    }

    /**
     * {@code [--dir DIR] [--repeat N] [--warmup W] [--threads T] [--forks F] [--tasks ID,ID]} (W: untimed passes over
     * the three corpora first, 3 by default); a bad argument is an IllegalArgumentException.
     */
    public static int run(List<String> args, PrintStream out) {
        Path dir = null;
        int repeat = 3, forks = 1000, threads = CorpusStream.defaultThreads(), warmup = 3;
        List<String> tasks = List.of("multi_turn_base_0", "multi_turn_long_context_0");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : null;
            switch (a) {
                case "--dir" -> dir = Path.of(ReplayBench.need(a, v));
                case "--repeat" -> repeat = ReplayBench.positive(a, ReplayBench.need(a, v));
                case "--forks" -> forks = ReplayBench.positive(a, ReplayBench.need(a, v));
                case "--warmup" -> warmup = nonNegative(a, ReplayBench.need(a, v));
                case "--threads" -> threads = ReplayBench.positive(a, ReplayBench.need(a, v));
                case "--tasks" -> tasks = List.of(ReplayBench.need(a, v).split(","));
                default -> throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            i++;
        }
        if (dir == null) dir = sharedCorpora();
        MultiTurnData data = MultiTurnData.load();
        for (String t : tasks)
            if (data.task(t) == null) throw new IllegalArgumentException("unknown BFCL multi-turn task '" + t + "'");
        for (UpstreamTime u : UPSTREAM) {
            Path corpus = dir.resolve(u.file());
            if (!Files.isRegularFile(corpus)) throw new IllegalArgumentException("no corpus " + corpus);
        }
        // A warm JVM: every corpus checked `warmup` times before any is timed, so that the first one timed
        // (gold-exec, 800 records) does not run while the JIT is still compiling the code all three share
        // (its process CPU per run kept falling for about ten runs of its own).
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (int i = 0; i < warmup; i++)
            for (UpstreamTime u : UPSTREAM) {
                Executor.forgetMemos();
                Path corpus = dir.resolve(u.file());
                if (u.file().startsWith("verdicts")) MultiTurnVerdicts.run(data, corpus, quiet, threads);
                else MultiTurnConformance.run(data, corpus, quiet, threads);
            }
        List<CorpusTime> times = new ArrayList<>();
        for (UpstreamTime u : UPSTREAM) {
            Path corpus = dir.resolve(u.file());
            CorpusTime t = time(data, corpus, u, repeat, threads);
            if (t == null) {
                out.println(u.file() + ": mismatches; run ./brokkr conformance bfcl-multi-turn --corpus " + corpus
                        + " first");
                return 1;
            }
            times.add(t);
        }
        out.printf(
                Locale.ROOT,
                "%-24s %7s %8s %10s %10s %13s %13s %10s %12s %10s%n",
                "corpus (best of " + repeat + ")",
                "records",
                "calls",
                "brokkr s",
                "1 thread s",
                "upstream s",
                "verified s",
                "x upstream",
                "x verified",
                "x 1 thread");
        for (CorpusTime t : times) {
            out.printf(
                    Locale.ROOT,
                    "%-24s %7d %8d %10.3f %10.3f %13.2f %13.2f %10.1f %12.1f %10.1f%n",
                    t.upstream().file(),
                    t.records(),
                    t.calls(),
                    t.seconds(),
                    t.oneThreadSeconds(),
                    t.upstream().upstreamSeconds(),
                    t.upstream().verifiedSeconds(),
                    t.upstream().upstreamSeconds() / t.seconds(),
                    t.upstream().verifiedSeconds() / t.seconds(),
                    t.upstream().upstreamSeconds() / t.oneThreadSeconds());
        }
        out.println("(x = upstream's median time (one process, one thread) / Brokkr's best; Brokkr's includes reading"
                + " the corpus and verifying every field; brokkr s: " + threads + " worker thread"
                + (threads == 1 ? "" : "s") + " (records in parallel, one reader thread), on "
                + Runtime.getRuntime().availableProcessors() + " cores; 1 thread s: everything on one thread)");
        out.println();
        out.printf(
                Locale.ROOT,
                "%-28s %6s %10s %14s %12s %14s %12s%n",
                "fork: task",
                "forks",
                "build µs",
                "µs/fork+turn",
                "world KB",
                "forks KB",
                "KB/fork");
        for (String id : tasks) {
            ForkCost f = forkCost(data.task(id), forks);
            out.printf(
                    Locale.ROOT,
                    "%-28s %6d %10.1f %14.1f %12.1f %14.1f %12.2f%n",
                    f.taskId(),
                    f.forks(),
                    f.buildNanos() / 1e3,
                    f.nanosPerFork() / 1e3,
                    f.worldBytes() / 1024.0,
                    f.forksBytes() / 1024.0,
                    f.forksBytes() / 1024.0 / f.forks());
        }
        out.println(
                "(each fork keeps the initial world's value and runs the first ground-truth turn on it; forks KB = heap the "
                        + "diverged forks retain beyond the one world)");
        return 0;
    }

    private static int nonNegative(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a non-negative integer, got '" + v + "'");
        }
    }

    /**
     * One untimed run, then the best of {@code repeat} on {@code threads} workers and the best of {@code repeat} on
     * one thread; null if the corpus has mismatches or skipped records.
     */
    static CorpusTime time(MultiTurnData data, Path corpus, UpstreamTime u, int repeat, int threads) {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        boolean verdicts = u.file().startsWith("verdicts");
        long best = Long.MAX_VALUE, bestOne = Long.MAX_VALUE;
        MultiTurnConformance.Report last = null;
        for (int r = 0; r <= 2 * repeat; r++) {
            int n = r == 0 || r > repeat ? threads : 1; // run 0 warms up, 1..repeat: one thread, then the threads
            Executor.forgetMemos(); // each run starts without the memos of the run before (as upstream's process)
            System.gc();
            long t0 = System.nanoTime();
            last = verdicts
                    ? MultiTurnVerdicts.run(data, corpus, quiet, n)
                    : MultiTurnConformance.run(data, corpus, quiet, n);
            long wall = System.nanoTime() - t0;
            if (last.mismatches() != 0 || last.skipped() != 0) return null;
            if (r > repeat) best = Math.min(best, wall);
            else if (r > 0) bestOne = Math.min(bestOne, wall);
        }
        return new CorpusTime(u, last.records(), last.calls(), threads, best, bestOne);
    }

    /** See the class comment. */
    static ForkCost forkCost(MultiTurnData.Task task, int forks) {
        TaskSetup setup = task.setup();
        List<String> turn = task.groundTruth().getFirst();
        for (int i = 0; i < 200; i++)
            Executor.execute(
                    Executor.execute(World.EMPTY, setup, MODEL, true, List.of()).world(), setup, MODEL, true, turn);
        Executor.forgetMemos(); // the build is timed making the world, not finding the one the warm-up made
        long before = usedAfterGc();
        long t0 = System.nanoTime();
        World initial =
                Executor.execute(World.EMPTY, setup, MODEL, true, List.of()).world();
        long build = System.nanoTime() - t0;
        long withWorld = usedAfterGc();
        World[] forked = new World[forks];
        long best = Long.MAX_VALUE;
        Executor.rememberCalls(false); // every fork evaluates its turn (a remembered call would be a look-up)
        try {
            for (int round = 0; round < 3; round++) {
                long f0 = System.nanoTime();
                for (int i = 0; i < forks; i++)
                    forked[i] =
                            Executor.execute(initial, setup, MODEL, true, turn).world();
                best = Math.min(best, System.nanoTime() - f0);
            }
        } finally {
            Executor.rememberCalls(true);
        }
        long withForks = usedAfterGc();
        Reference.reachabilityFence(forked);
        Reference.reachabilityFence(initial);
        return new ForkCost(
                task.id(),
                forks,
                build,
                best / forks,
                Math.max(0, withWorld - before),
                Math.max(0, withForks - withWorld));
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private static Path sharedCorpora() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path s = d.resolve("shared/conformance/bfcl/multi_turn");
            if (Files.isDirectory(s)) return s;
        }
        throw new IllegalArgumentException(
                "no shared/conformance/bfcl/multi_turn above " + Path.of("").toAbsolutePath() + " (give --dir DIR)");
    }
}
