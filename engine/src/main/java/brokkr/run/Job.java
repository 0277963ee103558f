package brokkr.run;

import io.opentelemetry.api.common.Attributes;

/**
 * One unit of a run, of any kind: an evaluation cell ({@link Runner#cell}), a probe's sample, an
 * attempt judged again. The runner gives it its models ({@link RunModels}: one candidate per model
 * reference, behind its provider's gate and the run's cache) and a thread; what it returns goes to the
 * run's sink. {@link #failed} is what the unit ends as when the runner has to end it (timed out, or
 * an exception its own code did not turn into a result): a unit is never dropped.
 */
public interface Job<R> {
    /** A short name for its thread and for messages ({@code retail-3-gold-0}). */
    String name();

    /** The candidate it serves, as the run labels it (the cache decides by it); null when none. */
    default String candidate() {
        return null;
    }

    /** Its trial counted from 1 (the cache's key holds it). */
    default int trial() {
        return 1;
    }

    R run(RunModels models) throws Exception;

    /**
     * What its {@code invoke_agent} span says of it when the run is traced ({@link Policy#trace}): a cell's
     * content ids, benchmark, task and trial. Asked only when traces are on.
     */
    default Attributes traceAttributes() {
        return Attributes.empty();
    }

    /** What its span says of {@code result} (a cell's status and reward). Asked only when traces are on. */
    default Attributes traceOutcome(R result) {
        return Attributes.empty();
    }

    /**
     * Whether {@code result} failed because a subscription's usage window refused a model call
     * ({@link UsageWindows}): the runner then records it ({@link Sink#acceptRefused}) and runs the unit again
     * after the window's reset. False by default.
     */
    default boolean refusedByUsageWindow(R result) {
        return false;
    }

    /** What the unit ends as when it could not finish: {@code error} says why. */
    R failed(String error, RunModels models, long startedAtMillis, long durationMillis);
}
