package brokkr.stats;

/**
 * A mean over tasks with its standard error and two-sided 95% t interval ({@code tasks - 1} degrees of
 * freedom). What cannot be computed is NaN and shown as a dash, never 0: everything without a task, the
 * standard error and interval of a single task (no spread to estimate from).
 *
 * @param tasks how many tasks (clusters) the estimate rests on
 */
public record Estimate(double value, double se, int tasks, Interval t95) {
    /** Nothing to estimate from: no task. */
    public static final Estimate NONE = new Estimate(Double.NaN, Double.NaN, 0, Interval.NONE);

    public boolean defined() {
        return !Double.isNaN(value);
    }

    /** Degrees of freedom of the t interval: tasks - 1. */
    public int df() {
        return tasks - 1;
    }

    /** This estimate with its interval clipped to {@code [lo, hi]} (a rate's interval to [0, 1]). */
    public Estimate clippedTo(double lo, double hi) {
        return new Estimate(value, se, tasks, t95.clippedTo(lo, hi));
    }

    /** A closed interval; {@link #NONE} (NaN ends) where it cannot be computed. */
    public record Interval(double low, double high) {
        public static final Interval NONE = new Interval(Double.NaN, Double.NaN);

        public boolean defined() {
            return !Double.isNaN(low) && !Double.isNaN(high);
        }

        public Interval clippedTo(double lo, double hi) {
            return defined() ? new Interval(Math.max(lo, Math.min(hi, low)), Math.max(lo, Math.min(hi, high))) : this;
        }

        public boolean contains(double x) {
            return defined() && low <= x && x <= high;
        }
    }
}
