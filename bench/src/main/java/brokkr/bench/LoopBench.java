package brokkr.bench;

import brokkr.agent.Transcript;
import brokkr.domains.synthetic.loop.LoopBenchmark;
import brokkr.domains.synthetic.loop.LoopFollower;
import brokkr.domains.synthetic.loop.PointerChain;
import brokkr.domains.synthetic.loop.PointerChasing;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.Planner;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import com.sun.management.ThreadMXBean;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * {@code ./brokkr bench loop}: how pointer chasing scales with depth, in time and memory, for the
 * scripted ideal follower (no model, no wire): the agent loop alone ({@link PointerChasing#play}, what
 * {@code ./brokkr loop N} runs) and the whole evaluation path (the runner's {@link Evaluation#evaluate} of a
 * {@link LoopBenchmark} cell: world setup and hash, protocol, transcript data, grading, evidence),
 * which the benchmark's task ids cap at {@value #EVALUATION_CAP}. Each depth runs in this JVM after
 * a warm-up; the table shows the best of a few runs' wall time, time per hop (flat when the cost is
 * linear), bytes allocated by the run, and the heap its result (the transcript, the attempt) retains.
 *
 * <p>Arguments: {@code --depths 1000,4000,...} (default 1k, 4k, 16k, 64k, 100k) and
 * {@code --max-seconds S} (default 120: a depth whose run took longer ends the series, as a
 * quadratic loop would take hours at 100k).
 */
public final class LoopBench {
    private LoopBench() {}

    static final int EVALUATION_CAP = 10_000;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out));
    }

    /** One measured depth. */
    public record Row(int depth, long millis, long allocatedBytes, long retainedBytes) {
        double microsPerHop() {
            return millis * 1000.0 / depth;
        }
    }

    public static int run(List<String> args, PrintStream out) {
        List<Integer> depths = List.of(1_000, 4_000, 16_000, 64_000, 100_000);
        double maxSeconds = 120;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : null;
            switch (a) {
                case "--depths" -> {
                    depths = parseDepths(v);
                    i++;
                }
                case "--max-seconds" -> {
                    maxSeconds = parsePositive(a, v);
                    i++;
                }
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + a + " (expected --depths N,N,... or --max-seconds S)");
            }
        }
        warmUp();
        out.println("agent loop: PointerChasing.play, scripted ideal follower (./brokkr loop N)");
        table(out, depths, maxSeconds, LoopBench::play);
        out.println();
        out.println(
                "evaluation path: a loop cell through the runner (Evaluation.evaluate), scripted ideal (task ids go up to "
                        + EVALUATION_CAP + ")");
        List<Integer> capped =
                new ArrayList<>(depths.stream().filter(d -> d <= EVALUATION_CAP).toList());
        if (depths.stream().anyMatch(d -> d > EVALUATION_CAP) && !capped.contains(EVALUATION_CAP))
            capped.add(EVALUATION_CAP);
        table(out, capped, maxSeconds, LoopBench::evaluation);
        return 0;
    }

    /** What {@code ./brokkr loop N} does: the chain, the walk, the score; the transcript is the result kept. */
    private static Supplier<Object> play(int depth) {
        return () -> {
            PointerChain chain = PointerChain.of(depth);
            Transcript t = PointerChasing.play(chain, LoopFollower.ideal());
            if (!PointerChasing.score(chain, t).passed())
                throw new IllegalStateException("the ideal follower failed depth " + depth);
            return t;
        };
    }

    private static Supplier<Object> evaluation(int depth) {
        BenchmarkProvider loop = new LoopBenchmark();
        var cell = new Evaluation.Cell(
                loop,
                loop.environment(Integer.toString(depth), Map.of()),
                AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, "ideal"), "tools", null),
                null,
                0);
        Plan plan = Planner.of(List.of(new Plan.Unit(cell, "ideal")), ref -> {
            throw new IllegalStateException("no models here");
        });
        return () -> {
            Attempt a = Runner.attempts(plan, Policy.of(1)).getFirst();
            if (a.reward() != 1.0)
                throw new IllegalStateException("the ideal follower failed depth " + depth + ": " + a.error());
            return a;
        };
    }

    private static void table(
            PrintStream out, List<Integer> depths, double maxSeconds, IntFunction<Supplier<Object>> work) {
        out.printf(
                Locale.ROOT, "%9s %10s %10s %14s %13s%n", "depth", "best ms", "µs/hop", "allocated MB", "retained MB");
        List<Row> rows = new ArrayList<>();
        for (int depth : depths) {
            Row r = measure(depth, work.apply(depth), depth <= 16_000 ? 3 : 1);
            rows.add(r);
            out.printf(
                    Locale.ROOT,
                    "%9d %10d %10.1f %14.1f %13.1f%n",
                    r.depth(),
                    r.millis(),
                    r.microsPerHop(),
                    r.allocatedBytes() / 1e6,
                    r.retainedBytes() / 1e6);
            out.flush();
            if (r.millis() > maxSeconds * 1000) {
                out.printf(Locale.ROOT, "  (stopped: depth %d took more than %.0f s)%n", depth, maxSeconds);
                break;
            }
        }
        if (rows.size() >= 2) {
            Row first = rows.getFirst(), last = rows.getLast();
            out.printf(
                    Locale.ROOT,
                    "depth x%.0f -> time x%.1f, allocation x%.1f (linear: x%.0f, quadratic: x%.0f)%n",
                    (double) last.depth() / first.depth(),
                    (double) Math.max(1, last.millis()) / Math.max(1, first.millis()),
                    (double) last.allocatedBytes() / Math.max(1, first.allocatedBytes()),
                    (double) last.depth() / first.depth(),
                    Math.pow((double) last.depth() / first.depth(), 2));
        }
    }

    /** The best wall time of {@code reps} runs; allocation and retained heap of the last. */
    static Row measure(int depth, Supplier<Object> work, int reps) {
        long best = Long.MAX_VALUE, allocated = 0, retained = 0;
        for (int r = 0; r < reps; r++) {
            long heapBefore = usedAfterGc();
            long alloc0 = THREADS.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            Object result = work.get();
            long millis = (System.nanoTime() - t0) / 1_000_000;
            allocated = THREADS.getCurrentThreadAllocatedBytes() - alloc0;
            retained = Math.max(0, usedAfterGc() - heapBefore);
            best = Math.min(best, millis);
            if (result == null) throw new IllegalStateException("no result");
            Reference.reachabilityFence(result);
        }
        return new Row(depth, best, allocated, retained);
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private static void warmUp() {
        for (int i = 0; i < 20; i++) {
            play(500).get();
            evaluation(200).get();
        }
    }

    private static List<Integer> parseDepths(String v) {
        if (v == null) throw new IllegalArgumentException("--depths needs a list, e.g. 1000,4000");
        List<Integer> out = new ArrayList<>();
        for (String s : v.split(",")) out.add((int) parsePositive("--depths", s.strip()));
        return out;
    }

    private static double parsePositive(String flag, String v) {
        try {
            double d = Double.parseDouble(v);
            if (d > 0 && d < Integer.MAX_VALUE) return d;
        } catch (NumberFormatException | NullPointerException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " needs a positive number, got " + v);
    }
}
