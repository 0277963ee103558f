package brokkr.domains.synthetic.parallel;

import brokkr.eval.Attempt;
import brokkr.python.PyFloats;
import brokkr.value.PyDict;
import brokkr.value.PyInt;

/**
 * One parallel-discrimination run, as zsmith's agentParallelismBenchmark prints it:
 * {@code pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes}. Efficiency is
 * calls / turns as a Python float repr; with no lookup turn at all it is {@code 0.0} (no division).
 */
public record ParallelResult(int tasks, int calls, int turns, int maxConcurrency, boolean correct) {
    public double efficiency() {
        return turns == 0 ? 0.0 : (double) calls / turns;
    }

    public String line() {
        return "pd tasks=%d calls=%d turns=%d maxConcurrency=%d efficiency=%s correct=%s"
                .formatted(tasks, calls, turns, maxConcurrency, PyFloats.repr(efficiency()), correct ? "yes" : "no");
    }

    /**
     * The result of a scored attempt of {@link ParallelBenchmark}: the lookups, turns and peak
     * concurrency its protocol reported; correct iff its evaluator gave reward 1
     * ({@link ParallelDiscrimination#score}'s rule). IllegalArgumentException for an attempt that was
     * not scored (an infrastructure failure).
     */
    public static ParallelResult of(Attempt a) {
        if (!a.completed())
            throw new IllegalArgumentException("parallel task " + a.taskId() + " was not scored: " + a.error());
        PyDict out = a.evidence().output();
        return new ParallelResult(
                Integer.parseInt(a.taskId()),
                integer(out, "calls"),
                integer(out, "turns"),
                integer(out, "max_concurrency"),
                a.success());
    }

    private static int integer(PyDict d, String k) {
        return (int) ((PyInt) d.get(k)).longValue();
    }
}
