package brokkr.experiment;

/**
 * Stops a running experiment from any thread ({@link #cancel}): no new cell starts, cells in flight
 * are interrupted and abandoned (their attempts are never recorded, so none is half-written), the
 * attempts that finished are committed, the run lock is released and {@link Experiments#run} returns
 * a result with {@link Experiments.Result#cancelled()} set. Running the experiment again resumes it.
 * Interrupting the thread that runs the experiment cancels it the same way (and that thread's
 * interrupt status is kept). A cancellation belongs to one run: cancelling it before the run starts
 * makes the run start no cell.
 */
public final class Cancellation {
    private volatile boolean cancelled;

    public void cancel() { cancelled = true; }

    public boolean isCancelled() { return cancelled; }
}
