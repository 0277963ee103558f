package brokkr.experiment;

import brokkr.eval.Attempt;

/**
 * What a run reports as it goes, for whoever shows it (a terminal progress bar, a notebook's live
 * display). {@link Experiments#run} calls {@link #started} once the store knows what is left to do,
 * {@link #attemptFinished} as each attempt is committed (on the run's single writer thread, one call at
 * a time) and {@link #finished} when the last attempt is committed or the run fails.
 */
public interface ProgressListener {
    /**
     * @param experiment  the experiment's name
     * @param cells       cells of the spec
     * @param alreadyDone cells with a completed attempt before this run (skipped)
     * @param toRun       cells this run evaluates (the rest are out of infrastructure retries)
     */
    default void started(String experiment, int cells, int alreadyDone, int toRun) {}

    /** An attempt was committed to the store (completed or an infrastructure failure). */
    default void attemptFinished(Attempt attempt) {}

    default void finished() {}

    /**
     * The run waits before its next cell: a subscription's usage window is at its threshold or refused a call
     * ({@link brokkr.run.UsageWindows}); {@code reason} says which, {@code until} is its reset.
     */
    default void paused(String reason, java.time.Instant until) {}

    /** The run goes on after a {@link #paused} wait. */
    default void resumed() {}

    /** Reports nothing. */
    ProgressListener NONE = new ProgressListener() {};
}
