package brokkr.stats;

/**
 * Two candidates on the same T tasks: per task a value of each ({@code a[t]}, {@code b[t]}: mean
 * reward, or pass^k's per-task estimate), their differences {@code d_t = a_t - b_t}, and
 * <ul>
 *   <li>the mean difference with its paired standard error {@code sd(d)/sqrt(T)} and 95% t interval
 *       (T - 1 degrees of freedom), as {@link Estimate};</li>
 *   <li>the paired t test's two-sided p-value ({@code t = mean(d) / se}); undefined (NaN) with one task or
 *       when every difference is the same (se = 0: the t statistic is 0/0 or infinite);</li>
 *   <li>the sign-flip test's p-value ({@link SignFlip}), exact for small T;</li>
 *   <li>the minimum detectable effect at 80% power and two-sided 5% level for this many tasks and
 *       this spread of differences (Bloom 1995, "Minimum detectable effects", Evaluation Review 19:547-556):
 *       {@code (t_{0.975, T-1} + t_{0.80, T-1}) * se}; a true difference this large is found
 *       significant four times in five.</li>
 * </ul>
 *
 * @param meanA the mean of {@code a} over the tasks
 * @param meanB the mean of {@code b}
 */
public record Paired(
        int tasks, double meanA, double meanB, Estimate difference, double pT, SignFlip.Result signFlip, double mde80) {
    /** Power of the minimum detectable effect. */
    public static final double POWER = 0.80;

    public static Paired of(double[] a, double[] b) {
        if (a.length != b.length)
            throw new IllegalArgumentException("paired values need the same tasks: " + a.length + " vs " + b.length);
        int t = a.length;
        double[] d = new double[t];
        for (int i = 0; i < t; i++) d[i] = a[i] - b[i];
        Estimate diff = OverTasks.mean(d);
        double pT = Double.NaN, mde = Double.NaN;
        if (t >= 2) {
            if (diff.se() > 0) pT = Student.twoSidedP(diff.value() / diff.se(), t - 1);
            mde = (Student.critical95(t - 1) + Student.quantile(POWER, t - 1)) * diff.se();
        }
        return new Paired(t, mean(a), mean(b), diff, pT, SignFlip.test(d), mde);
    }

    private static double mean(double[] x) {
        if (x.length == 0) return Double.NaN;
        double s = 0;
        for (double v : x) s += v;
        return s / x.length;
    }
}
