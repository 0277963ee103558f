package brokkr.stats;

import java.util.List;

/**
 * Wilson score intervals for rates. A t interval over few tasks, or around a rate near 0 or 1, can
 * leave [0, 1] or collapse to a point (every trial passed: standard error 0); Wilson's interval stays
 * inside and keeps a width.
 *
 * <p>For clustered trials ({@link #clustered}) it is the design-effect form (Korn and Graubard 1998,
 * "Confidence intervals for proportions with small expected number of positive counts estimated from
 * survey data", Survey Methodology 24:193-201): the plain Wilson interval on the effective sample size
 * {@code n_eff = p(1-p) / var}, with {@code var} the clustered variance of the rate without the small
 * sample factor ({@code sum_t (n_t (m_t - p))^2 / N^2}, which for one trial per task is exactly
 * {@code p(1-p)/T}, so that case is the textbook interval), and the t quantile with T - 1 degrees of freedom
 * in place of z (Korn and Graubard's degrees-of-freedom adjustment). {@code n_eff} is at most the number of trials;
 * where the variance is 0 it is the number of trials when {@code 0 < p < 1} and the number of tasks when every
 * trial agrees ({@code p} is 0 or 1: how correlated the trials of a task are cannot be told, so only
 * the tasks count).
 */
public final class Wilson {
    private Wilson() {}

    /** Below this many tasks the Wilson-type interval is the one to read. */
    public static final int FEW_TASKS = 30;
    /** A rate this close to 0 or 1 reads the Wilson-type interval too. */
    public static final double NEAR_EDGE = 0.1;

    /** The textbook Wilson score interval for a proportion {@code p} of {@code n} with critical value {@code z}. */
    public static Estimate.Interval interval(double p, double n, double z) {
        if (!(n > 0) || Double.isNaN(p) || p < 0 || p > 1) return Estimate.Interval.NONE;
        double z2n = z * z / n;
        double centre = (p + z2n / 2) / (1 + z2n);
        double half = z / (1 + z2n) * Math.sqrt(p * (1 - p) / n + z2n / (4 * n));
        return new Estimate.Interval(Math.max(0, centre - half), Math.min(1, centre + half));
    }

    /** The normal quantile of a two-sided 95% interval. */
    public static final double Z95 = 1.959963984540054;

    /**
     * The 95% interval of the difference of two independent rates, {@code x1/n1 - x2/n2}: Newcombe's hybrid
     * score interval (Newcombe 1998, "Interval estimation for the difference between independent proportions",
     * Statistics in Medicine 17:873-890, method 10), made of the two rates' Wilson intervals, so it stays inside
     * [-1, 1] and keeps a width at 0/n and n/n, where the Wald interval collapses.
     */
    public static Estimate.Interval difference(int x1, int n1, int x2, int n2) {
        if (n1 < 1 || n2 < 1 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2) return Estimate.Interval.NONE;
        double p1 = (double) x1 / n1, p2 = (double) x2 / n2, d = p1 - p2;
        Estimate.Interval a = interval(p1, n1, Z95), b = interval(p2, n2, Z95);
        return new Estimate.Interval(
                d - Math.sqrt(square(p1 - a.low()) + square(b.high() - p2)),
                d + Math.sqrt(square(a.high() - p1) + square(p2 - b.low())));
    }

    private static double square(double x) {
        return x * x;
    }

    /**
     * The design-effect Wilson interval of the clusters' pooled rate (see the class comment); none
     * with fewer than two tasks or a task mean outside [0, 1] (not a rate).
     */
    public static Estimate.Interval clustered(List<OverTasks.Cluster> clusters) {
        int t = clusters.size();
        if (t < 2 || clusters.stream().anyMatch(c -> c.mean() < 0 || c.mean() > 1)) return Estimate.Interval.NONE;
        double p = OverTasks.pooledMean(clusters);
        long n = OverTasks.trials(clusters);
        double variance = OverTasks.sumOfSquaredClusterResiduals(clusters, p) / OverTasks.square(n);
        double spread = p * (1 - p);
        double effective = variance > 0 ? Math.min(n, spread / variance) : spread > 0 ? n : t;
        return interval(p, effective, Student.critical95(t - 1));
    }

    /** Whether the Wilson-type interval is the one to read: fewer than {@value #FEW_TASKS} tasks or a rate within {@value #NEAR_EDGE} of 0 or 1. */
    public static boolean preferred(int tasks, double rate) {
        return tasks < FEW_TASKS || rate <= NEAR_EDGE || rate >= 1 - NEAR_EDGE;
    }
}
