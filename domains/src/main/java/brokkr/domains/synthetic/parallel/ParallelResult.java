package brokkr.domains.synthetic.parallel;

import brokkr.python.PyFloats;

/**
 * One parallel-discrimination run, as zsmith's agentParallelismBenchmark prints it:
 * {@code pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes}. Efficiency is
 * calls / turns as a Python float repr; with no lookup turn at all it is {@code 0.0} (no division).
 */
public record ParallelResult(int tasks, int calls, int turns, int maxConcurrency, boolean correct) {
    public double efficiency() { return turns == 0 ? 0.0 : (double) calls / turns; }

    public String line() {
        return "pd tasks=%d calls=%d turns=%d maxConcurrency=%d efficiency=%s correct=%s"
                .formatted(tasks, calls, turns, maxConcurrency, PyFloats.repr(efficiency()), correct ? "yes" : "no");
    }
}
