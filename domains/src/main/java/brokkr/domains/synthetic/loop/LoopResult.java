package brokkr.domains.synthetic.loop;

import brokkr.eval.Attempt;
import brokkr.value.PyInt;
import brokkr.value.Value;

/**
 * One pointer-chasing run, as zsmith's agentLoopBenchmark prints it:
 * {@code PASS depth=50 toolCalls=50/50} or
 * {@code FAIL depth=100 toolCalls=63/100 expected=... actual=...}.
 */
public record LoopResult(int depth, int toolCalls, boolean passed, String expected, String actual) {
    public String line() {
        return passed
                ? "PASS depth=%d toolCalls=%d/%d".formatted(depth, toolCalls, depth)
                : "FAIL depth=%d toolCalls=%d/%d expected=%s actual=%s"
                        .formatted(depth, toolCalls, depth, expected, actual);
    }

    /**
     * The result of a scored attempt of {@link LoopBenchmark}: PASS iff its evaluator gave reward 1
     * ({@link PointerChasing#score}'s rule); the calls counted by the protocol; the answer without
     * whitespace, and the chain's secret for a FAIL line. IllegalArgumentException for an attempt that
     * was not scored (an infrastructure failure).
     */
    public static LoopResult of(Attempt a) {
        if (!a.completed())
            throw new IllegalArgumentException("loop task " + a.taskId() + " was not scored: " + a.error());
        PointerChain chain = PointerChain.of(Integer.parseInt(a.taskId()));
        int calls = (int) ((PyInt) a.evidence().output().get("tool_calls")).longValue();
        Value answer = a.evidence().output().get("answer");
        String actual = answer == null || answer.isNone() ? "" : answer.asStr().replaceAll("\\s", "");
        return new LoopResult(chain.depth(), calls, a.success(), chain.secret(), actual);
    }
}
