package brokkr.domains.synthetic.parallel;

import brokkr.agent.ToolHandler;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lookup tool's own measure of how many of its calls were in flight at once (zsmith
 * LookupTool.enter/leave). Every call holds for a fixed time inside the gauge so that calls the
 * executor runs together overlap measurably; calls of separate turns never overlap, because a turn's
 * calls all finish before the agent's next message. This is the one mutable part of the benchmark:
 * one gauge per run.
 */
public final class ConcurrencyGauge {
    /** zsmith LookupTool.OVERLAP_MILLIS. */
    public static final Duration DEFAULT_HOLD = Duration.ofMillis(20);

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger max = new AtomicInteger();
    private final Duration hold;

    public ConcurrencyGauge(Duration hold) {
        this.hold = hold;
    }

    public ConcurrencyGauge() {
        this(DEFAULT_HOLD);
    }

    /** The most calls that were in flight at the same time so far. */
    public int maxConcurrency() {
        return max.get();
    }

    /** {@code inner}, each call counted in flight for the hold time around it. */
    public ToolHandler wrap(ToolHandler inner) {
        return call -> {
            max.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                Thread.sleep(hold);
                return inner.handle(call);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("lookup interrupted", e);
            } finally {
                inFlight.decrementAndGet();
            }
        };
    }
}
