package brokkr.domains.bfcl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Time to grade a verdict corpus (default ../shared/conformance/bfcl/verdicts-seed7.jsonl), not a
 * unit test. Like upstream's recorded figure (conformance README: 0.60 s for the 58,044 lines,
 * per-line runner evaluation, excluding imports, data and corpus loading), the clock covers grading
 * only; best of several rounds on a warm JVM, plus the first (cold) round. Run from the repository
 * root after {@code mvn -pl domains -am test-compile}:
 * <pre>java -cp domains/target/classes:domains/target/test-classes:engine/target/classes:$(deps) brokkr.domains.bfcl.GradeBenchmark [corpus [rounds]]</pre>
 */
public final class GradeBenchmark {
    static final double UPSTREAM_SECONDS = 0.60;

    public static void main(String[] args) {
        Path corpus = args.length > 0
                ? Path.of(args[0])
                : Path.of("..", "shared", "conformance", "bfcl", "verdicts-seed7.jsonl");
        BfclData data = BfclData.load();
        List<BfclConformance.Line> lines = BfclConformance.read(corpus);
        Map<String, BfclTask> byId = data.byId();
        List<BfclTask> tasks = new ArrayList<>(lines.size());
        for (BfclConformance.Line l : lines) tasks.add(byId.get(l.taskId()));
        // Wall clock and this thread's CPU time: on a shared, loaded machine the CPU time is the
        // steadier figure (wall time includes waiting for a core).
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        double first = 0, best = Double.MAX_VALUE, bestCpu = Double.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < rounds; round++) {
            long c0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
            sink += BfclConformance.gradeAll(tasks, lines);
            double s = (System.nanoTime() - t0) / 1e9, cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
            if (round == 0) first = s;
            best = Math.min(best, s);
            bestCpu = Math.min(bestCpu, cpu);
        }
        System.out.printf("%d lines, %d valid verdicts per round%n", lines.size(), sink / rounds);
        System.out.printf(
                "first round %.1f ms wall; best of %d: %.1f ms wall, %.1f ms CPU (%.2f us/line)%n",
                first * 1e3, rounds, best * 1e3, bestCpu * 1e3, bestCpu * 1e6 / lines.size());
        System.out.printf(
                "upstream %.2f s: %.1fx faster (best wall), %.1fx (best CPU), %.1fx on the first round%n",
                UPSTREAM_SECONDS, UPSTREAM_SECONDS / best, UPSTREAM_SECONDS / bestCpu, UPSTREAM_SECONDS / first);
    }
}
