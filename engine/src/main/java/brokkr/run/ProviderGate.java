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
    static final ProviderGate NONE = new ProviderGate(0, 0);

    private final Semaphore permits;
    private final long intervalNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private long nextStart = System.nanoTime();

    ProviderGate(Policy.Limit limit) {
        this(limit == null ? 0 : limit.concurrency(), limit == null ? 0 : limit.ratePerSecond());
    }

    private ProviderGate(int concurrency, double ratePerSecond) {
        this.permits = concurrency <= 0 ? null : new Semaphore(concurrency, true);
        this.intervalNanos = ratePerSecond <= 0 ? 0 : (long) (1e9 / ratePerSecond);
    }

    Candidate wrap(Candidate c) {
        if (permits == null && intervalNanos == 0) return c;
        return (history, tools) -> {
            acquire();
            try {
                return c.next(history, tools);
            } finally {
                if (permits != null) permits.release();
            }
        };
    }

    private void acquire() {
        if (permits != null) permits.acquireUninterruptibly();
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

    /** The cell was cancelled (timed out) while waiting. */
    static final class CancellationException extends RuntimeException {
        CancellationException(String m) {
            super(m);
        }
    }
}
