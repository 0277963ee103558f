package brokkr.stats;

import java.util.Random;

/**
 * The sign-flip (paired permutation) test of "no difference": under the null each task's difference
 * is as likely negative as positive, so the p-value is the share of the 2^T sign assignments whose
 * |sum| is at least the observed |sum|. Exact (every assignment) up to {@value #EXACT_MAX_TASKS}
 * tasks (2^20 = 1,048,576 sums); beyond that {@value #DRAWS} random assignments drawn with the fixed
 * seed {@value #SEED} (so a re-run reports the same p), counted as (1 + hits) / (1 + draws), which is
 * never 0 (Phipson and Smyth 2010, "Permutation p-values should never be zero"). Needs no normality,
 * which the paired t test assumes and T small differences of 0/1 rewards do not have.
 */
public final class SignFlip {
    private SignFlip() {}

    public static final int EXACT_MAX_TASKS = 20;
    public static final int DRAWS = 100_000;
    public static final long SEED = 20_240_601L;

    /**
     * @param exact whether every assignment was counted ({@code assignments} = 2^T) or {@code assignments}
     *              were drawn at random with {@link #SEED}
     */
    public record Result(double p, boolean exact, long assignments) {
        public static final Result NONE = new Result(Double.NaN, true, 0);

        /** {@code "exact over 2^10 sign assignments"} or {@code "Monte Carlo, 100000 draws, seed 20240601"}. */
        public String method() {
            if (Double.isNaN(p)) return "none (no task)";
            return exact
                    ? "exact over 2^" + Long.numberOfTrailingZeros(assignments) + " sign assignments"
                    : "Monte Carlo, " + assignments + " draws, seed " + SEED;
        }
    }

    /** The two-sided sign-flip p-value of the differences (NaN without any). */
    public static Result test(double[] d) {
        int t = d.length;
        if (t == 0) return Result.NONE;
        double observed = Math.abs(sum(d));
        // Sums of the same numbers in other orders and signs differ in their last bits: a tie is a tie.
        double scale = 0;
        for (double x : d) scale += Math.abs(x);
        double tolerance = 1e-9 * Math.max(1, scale);
        if (t <= EXACT_MAX_TASKS) {
            long hits = 0, all = 1L << t;
            for (long mask = 0; mask < all; mask++) {
                double s = 0;
                for (int i = 0; i < t; i++) s += (mask >>> i & 1) == 0 ? d[i] : -d[i];
                if (Math.abs(s) >= observed - tolerance) hits++;
            }
            return new Result((double) hits / all, true, all);
        }
        Random random = new Random(SEED);
        long hits = 0;
        for (int draw = 0; draw < DRAWS; draw++) {
            double s = 0;
            for (double x : d) s += random.nextBoolean() ? x : -x;
            if (Math.abs(s) >= observed - tolerance) hits++;
        }
        return new Result((1.0 + hits) / (1.0 + DRAWS), false, DRAWS);
    }

    private static double sum(double[] d) {
        double s = 0;
        for (double x : d) s += x;
        return s;
    }
}
