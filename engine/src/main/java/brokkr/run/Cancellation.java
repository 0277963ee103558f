package brokkr.run;

/**
 * Stops a run from any thread ({@link #cancel}): no new unit starts, units in flight are interrupted
 * and abandoned (nothing of them reaches the sink, so no attempt is half-written), what finished stays
 * with the sink, and {@link Runner#run} returns with {@link Runner.Outcome#cancelled()} set.
 * Interrupting the thread that runs the plan cancels it the same way (and that thread's interrupt
 * status is kept; the run's cancellation is then cancelled too, so whatever waits on the run's limits
 * sees it: no call waiting for its provider is sent after the run was cancelled). A cancellation belongs to one run: cancelling it before the run starts makes the
 * run start nothing. An experiment run again resumes what a cancelled one left.
 */
public final class Cancellation {
    private volatile boolean cancelled;

    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
