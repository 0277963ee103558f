package brokkr.run;

import brokkr.conversation.Candidate;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A model provider's limits over the whole experiment: at most {@code concurrency} calls at once
 * (0 = unlimited) and at most {@code ratePerSecond} call starts per second (0 = unlimited), shared by
 * the candidates, user simulators and judges of every unit of a run that use the provider.
 */
final class ProviderGate {
    /** No limit: calls pass straight through. */
    static final ProviderGate NONE = new ProviderGate(0, 0, new Cancellation());

    private final Semaphore permits;
    private final long intervalNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private long nextStart = System.nanoTime();
    /** The run's: a call that gets its turn after the run was cancelled is not sent. */
    private final Cancellation cancellation;

    ProviderGate(Policy.Limit limit, Cancellation cancellation) {
        this(limit == null ? 0 : limit.concurrency(), limit == null ? 0 : limit.ratePerSecond(), cancellation);
    }

    private ProviderGate(int concurrency, double ratePerSecond, Cancellation cancellation) {
        this.cancellation = cancellation;
        this.permits = concurrency <= 0 ? null : new Semaphore(concurrency, true);
        this.intervalNanos = ratePerSecond <= 0 ? 0 : (long) (1e9 / ratePerSecond);
    }

    Candidate wrap(Candidate c) {
        if (permits == null && intervalNanos == 0) return c;
        return new Candidate() {
            @Override
            public brokkr.conversation.Turn next(
                    java.util.List<brokkr.conversation.Message> history,
                    java.util.List<brokkr.conversation.ToolSpec> tools)
                    throws brokkr.conversation.InfrastructureFailure {
                acquire();
                try {
                    return c.next(history, tools);
                } finally {
                    if (permits != null) permits.release();
                }
            }

            /** A call made outside {@code next} (a Claude Code harness turn) takes the same permit and slot. */
            @Override
            public Candidate.Permit acquire() {
                ProviderGate.this.acquire();
                return permits == null ? Candidate.Permit.NONE : permits::release;
            }
        };
    }

    private void acquire() {
        // Interruptibly, and never past a cancellation: a cancelled run interrupts its units and abandons
        // them, and one that waited here regardless (or got its turn before its interrupt arrived) would
        // still send its call after the run returned.
        if (permits != null) {
            try {
                permits.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CancellationException("interrupted while waiting for the provider's concurrency limit");
            }
            if (cancellation.isCancelled()) {
                permits.release();
                throw new CancellationException("the run was cancelled while this call waited for its provider");
            }
        }
        if (intervalNanos == 0) return;
        long slot;
        lock.lock();
        try {
            // Start slots are handed out evenly spaced; a caller sleeps until its slot.
            slot = Math.max(System.nanoTime(), nextStart);
            nextStart = slot + intervalNanos;
        } finally {
            lock.unlock();
        }
        long wait = slot - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                if (permits != null) permits.release();
                Thread.currentThread().interrupt();
                throw new CancellationException("interrupted while waiting for a rate-limit slot");
            }
        }
    }

    /** The cell was cancelled (timed out, or its run cancelled) while waiting. */
    static final class CancellationException extends RuntimeException {
        CancellationException(String m) {
            super(m);
        }
    }
}
