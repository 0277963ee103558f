package brokkr.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Student's t distribution: quantiles and two-sided tail probabilities, from Apache Commons Math
 * (its regularized incomplete beta function), not hand-written special functions.
 */
public final class Student {
    private Student() {}

    /** The {@code p} quantile of t with {@code df} degrees of freedom ({@code df >= 1}). */
    public static double quantile(double p, int df) {
        return distribution(df).inverseCumulativeProbability(p);
    }

    /** {@code P(|T| >= |t|)} for t with {@code df} degrees of freedom: the two-sided p-value of a t statistic. */
    public static double twoSidedP(double t, int df) {
        if (Double.isNaN(t)) return Double.NaN;
        if (Double.isInfinite(t)) return 0.0;
        return 2 * distribution(df).cumulativeProbability(-Math.abs(t));
    }

    /** The critical value of a two-sided 95% interval: the 0.975 quantile. */
    public static double critical95(int df) {
        return quantile(0.975, df);
    }

    private static TDistribution distribution(int df) {
        if (df < 1) throw new IllegalArgumentException("t needs at least 1 degree of freedom, got " + df);
        // No random generator: nothing here samples (the default constructor seeds one per instance).
        return new TDistribution(null, df);
    }
}
