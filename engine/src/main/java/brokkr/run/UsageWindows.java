package brokkr.run;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * The usage windows of subscription-billed models (Claude Code's five-hour and weekly windows), as their
 * providers last read them, and the pause they impose on a run: before each cell the {@link Runner} waits
 * while a window is at or above its threshold (the provider's {@code usage_threshold}, default
 * {@value #DEFAULT_THRESHOLD}) or has refused a call, and resumes at the window's reset. A cell that failed
 * because a window refused one of its calls (its error holds {@link #REFUSED}) is recorded as the
 * infrastructure failure it is, and run again after the reset, at most {@link #reruns()} times.
 *
 * <p>One per process ({@link #process()}): windows belong to an account, not to a run, so every run of the
 * process sees what any provider read. Thread-safe.
 */
public final class UsageWindows {
    public static final double DEFAULT_THRESHOLD = 0.97;
    public static final int DEFAULT_RERUNS = 3;
    /** Part of the error of a call a usage window refused: the runner re-runs such a cell after the reset. */
    public static final String REFUSED = "usage window refused the call";
    /** How long to wait when a refusal names no reset. */
    static final Duration UNKNOWN_RESET_WAIT = Duration.ofMinutes(5);

    private static final UsageWindows PROCESS = new UsageWindows(InstantSource.system());

    /** A window's reading: {@code utilization} 0..1, its reset, the threshold it pauses at. */
    public record Reading(
            String source, String window, double utilization, Instant resetsAt, double threshold, boolean refused) {}

    /** A pause: which window, how full, until when. */
    public record Pause(String source, String window, double utilization, Instant until, boolean refused) {
        public String describe() {
            return (refused
                            ? "usage window " + window + " refused a call"
                            : "usage window " + window + " at " + Math.round(utilization * 100) + "%")
                    + " (" + source + "): paused until " + until;
        }
    }

    /** Told when a run pauses for a window and when it resumes. */
    public interface Listener {
        void paused(Pause pause);

        void resumed(Pause pause);
    }

    private final InstantSource clock;
    private final Map<String, Reading> readings = new LinkedHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private int reruns = DEFAULT_RERUNS;

    public UsageWindows(InstantSource clock) {
        this.clock = clock;
    }

    public static UsageWindows process() {
        return PROCESS;
    }

    /** A provider's reading of {@code window} ({@code five_hour}, ...) for {@code source} (a provider and its credential's kind). */
    public synchronized void report(
            String source, String window, double utilization, Instant resetsAt, double threshold) {
        Reading was = readings.get(source + "/" + window);
        // A refusal stands until its reset, whatever a later reading of the same window says.
        boolean refused = was != null && was.refused() && clock.instant().isBefore(was.resetsAt());
        readings.put(source + "/" + window, new Reading(source, window, utilization, resetsAt, threshold, refused));
    }

    /** A call refused by {@code window} until {@code resetsAt} (null: unknown); cells refused so are re-run at most {@code maxReruns} times. */
    public synchronized void refused(String source, String window, Instant resetsAt, int maxReruns) {
        Instant until = resetsAt != null ? resetsAt : clock.instant().plus(UNKNOWN_RESET_WAIT);
        String w = window == null ? "unknown" : window;
        readings.put(source + "/" + w, new Reading(source, w, 1.0, until, 0, true));
        reruns = maxReruns;
    }

    /** How often a refused cell is run again. */
    public synchronized int reruns() {
        return reruns;
    }

    /** The pause due now: the window that is refused or at/above its threshold with the latest reset, if any. */
    public synchronized Optional<Pause> due() {
        Instant now = clock.instant();
        readings.values().removeIf(r -> !now.isBefore(r.resetsAt()));
        Pause p = null;
        for (Reading r : readings.values()) {
            if (!r.refused() && r.utilization() < r.threshold()) continue;
            if (p == null || r.resetsAt().isAfter(p.until()))
                p = new Pause(r.source(), r.window(), r.utilization(), r.resetsAt(), r.refused());
        }
        return Optional.ofNullable(p);
    }

    /** Ends a {@link #listen} (no checked exception, for try-with-resources). */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    public Subscription listen(Listener l) {
        listeners.add(l);
        return () -> listeners.remove(l);
    }

    /**
     * Waits while a pause is due (re-checked at least every second, so a cancelled run stops waiting at
     * once), telling the listeners when it starts and ends. Returns whether it paused; false also when
     * {@code cancelled} said so or the thread was interrupted (its status set again).
     */
    public boolean awaitOpen(BooleanSupplier cancelled) {
        Optional<Pause> first = due();
        if (first.isEmpty()) return false;
        List<Pause> seen = new ArrayList<>();
        Pause current = first.get();
        seen.add(current);
        for (Listener l : listeners) l.paused(current);
        try {
            while (!cancelled.getAsBoolean()) {
                Optional<Pause> p = due();
                if (p.isEmpty()) break;
                if (!p.get().equals(current)) {
                    current = p.get();
                    seen.add(current);
                    for (Listener l : listeners) l.paused(current);
                }
                long ms = Math.max(
                        1, Duration.between(clock.instant(), current.until()).toMillis());
                Thread.sleep(Math.min(ms, 1000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Listener l : listeners) l.resumed(current);
        return true;
    }

    /** Whether an attempt's error says a usage window refused one of its calls. */
    public static boolean refusedError(String error) {
        return error != null && error.contains(REFUSED);
    }

    /** Forgets every reading (tests). */
    public synchronized void clear() {
        readings.clear();
        reruns = DEFAULT_RERUNS;
    }
}
