package brokkr.domains.synthetic.loop;

/**
 * One pointer-chasing run, as zsmith's agentLoopBenchmark prints it:
 * {@code PASS depth=50 toolCalls=50/50} or
 * {@code FAIL depth=100 toolCalls=63/100 expected=... actual=...}.
 */
public record LoopResult(int depth, int toolCalls, boolean passed, String expected, String actual) {
    public String line() {
        return passed ? "PASS depth=%d toolCalls=%d/%d".formatted(depth, toolCalls, depth)
                : "FAIL depth=%d toolCalls=%d/%d expected=%s actual=%s".formatted(depth, toolCalls, depth, expected, actual);
    }
}
