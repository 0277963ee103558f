package brokkr.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Where a run's results go, as each unit finishes: the experiment store, memory, a progress display,
 * a command printing in plan order. {@link #accept} is called on the finishing unit's thread, so
 * several at once. A sink that throws, or reports a {@link #fatal} failure (a store that could not
 * commit), stops the run: no new unit starts, and the failure is rethrown when the units in flight
 * have ended.
 */
public interface Sink<R> {
    /** The result of the plan's unit number {@code index}. */
    void accept(int index, Job<R> job, R result);

    /**
     * A result of unit {@code index} that a usage window's refusal ended and that the runner runs again
     * ({@link Job#refusedByUsageWindow}): its final result still comes through {@link #accept}. A store keeps it
     * (an infrastructure failure, never scored); by default it is dropped.
     */
    default void acceptRefused(int index, Job<R> job, R result) {}

    /** A failure of the sink's own (for a sink that writes on a thread of its own), or null. */
    default Throwable fatal() {
        return null;
    }

    /** Results in plan order, as soon as each and those before it are done; {@code results()} after the run. */
    static <R> Ordered<R> ordered(Consumer<R> inOrder) {
        return new Ordered<>(inOrder);
    }

    /** Collects every result; {@code results()} in plan order once the run returns. */
    static <R> Ordered<R> memory() {
        return new Ordered<>(r -> {});
    }

    /** Hands results on in plan order (holding back those that finish before an earlier unit). */
    final class Ordered<R> implements Sink<R> {
        private final Consumer<R> inOrder;
        private final Map<Integer, R> waiting = new TreeMap<>();
        private final List<R> delivered = new ArrayList<>();
        private RuntimeException failure;

        private Ordered(Consumer<R> inOrder) {
            this.inOrder = inOrder;
        }

        @Override
        public synchronized void accept(int index, Job<R> job, R result) {
            waiting.put(index, result);
            while (waiting.containsKey(delivered.size())) {
                R next = waiting.remove(delivered.size());
                delivered.add(next);
                try {
                    inOrder.accept(next);
                } catch (RuntimeException e) {
                    if (failure == null) failure = e;
                    throw e;
                }
            }
        }

        @Override
        public synchronized Throwable fatal() {
            return failure;
        }

        /** The results handed on so far, in plan order. */
        public synchronized List<R> results() {
            return Collections.unmodifiableList(new ArrayList<>(delivered));
        }
    }
}
