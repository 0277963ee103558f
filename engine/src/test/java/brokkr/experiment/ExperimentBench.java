package brokkr.experiment;

import brokkr.eval.ModelRef;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runner overhead benchmark (a main, not a test): 1,000 cells whose simulated model answers after
 * 200 ms, at parallelism 100. The ideal wall time is 10 waves × 200 ms = 2 s; the target is within
 * 1.2× of it. Reports the wall time of the whole run (planning, registration, cells, scorecard),
 * the ratio to the ideal and the store's mean cost to serialize and commit one attempt.
 *
 * <p>Run: {@code java -cp engine/target/classes:engine/target/test-classes:DEPS brokkr.experiment.ExperimentBench [runs]}
 */
public final class ExperimentBench {
    /** The machine's floor for this shape: virtual threads, a semaphore and the sleeps, no evaluation or store. */
    static double floor(int cells, int parallelism, int latencyMs) throws InterruptedException {
        var slots = new java.util.concurrent.Semaphore(parallelism);
        long t0 = System.nanoTime();
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < cells; c++) {
                slots.acquire();
                pool.execute(() -> {
                    try {
                        Thread.sleep(latencyMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int tasks = 250, reps = 4, parallelism = 100, latencyMs = 200;
        var candidate = new ExperimentSpec.CandidateSpec(
                "sim", new ModelRef("fake", "gold", PyDict.of("latency_ms", latencyMs)), "tools", null);
        var spec = new ExperimentSpec(
                "bench",
                List.of(new ExperimentSpec.DomainSpec("quiz", "all", null)),
                List.of(candidate),
                reps,
                parallelism,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        double ideal = (double) tasks * reps / parallelism * latencyMs / 1000.0;
        for (int i = 0; i < runs; i++) {
            System.out.printf(
                    Locale.ROOT,
                    "floor %d: the same 1000 sleeps on virtual threads behind a semaphore, nothing else: %.3f s%n",
                    i + 1,
                    floor(tasks * reps, parallelism, latencyMs));
            Path dir = Files.createTempDirectory("brokkr-bench");
            var registry = Registry.of(List.of(new QuizBench(tasks)), List.of(new QuizBench.Models()));
            long t0 = System.nanoTime();
            var r = Experiments.run(spec, dir, registry);
            double wall = (System.nanoTime() - t0) / 1e9;
            long dbBytes = Files.size(ExperimentStore.file(dir))
                    + (Files.exists(dir.resolve(ExperimentStore.FILE + "-wal"))
                            ? Files.size(dir.resolve(ExperimentStore.FILE + "-wal"))
                            : 0);
            System.out.printf(
                    Locale.ROOT,
                    "run %d: %d cells (%d completed) at parallelism %d, %d ms model latency: wall %.3f s (cells %.3f s), ideal %.3f s, ratio %.3f (cells %.3f); store per attempt: %.3f ms to serialize (parallel), %.3f ms of the single writer (%d commits); db %d KB%n",
                    i + 1,
                    r.cells(),
                    r.completed(),
                    parallelism,
                    latencyMs,
                    wall,
                    r.cellsWall().toNanos() / 1e9,
                    ideal,
                    wall / ideal,
                    r.cellsWall().toNanos() / 1e9 / ideal,
                    r.meanSerializeMillis(),
                    r.meanCommitMillis(),
                    r.commits(),
                    dbBytes / 1024);
            long p0 = System.nanoTime();
            Planner.plan(spec, registry).units();
            long p1 = System.nanoTime();
            Experiments.scorecard(dir);
            long p2 = System.nanoTime();
            System.out.printf(
                    Locale.ROOT,
                    "       of the overhead outside cells: planning %.0f ms, scorecard from the store %.0f ms%n",
                    (p1 - p0) / 1e6,
                    (p2 - p1) / 1e6);
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }
}
