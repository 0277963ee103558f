package brokkr.experiment;

/**
 * Fisher's exact test on a 2×2 table {@code [[a, b], [c, d]]} (rows: two candidates; columns: samples
 * that match the gold next action, samples that differ). Two-sided as R's {@code fisher.test} computes it:
 * the sum of the hypergeometric probabilities of every table with the same margins that is no more
 * likely than the observed one (within a relative 1e-7, R's tolerance for ties).
 */
public final class FisherExact {
    private FisherExact() {}

    /** R's {@code relErr = 1 + 1e-7} on probabilities, as a difference of logs. */
    private static final double RELATIVE_TOLERANCE = Math.log1p(1e-7);

    /** The table and its two-sided p-value. */
    public record Result(int a, int b, int c, int d, double pValue) {}

    public static Result test(int a, int b, int c, int d) {
        if (a < 0 || b < 0 || c < 0 || d < 0)
            throw new IllegalArgumentException(
                    "a 2x2 table counts from 0: [[" + a + ", " + b + "], [" + c + ", " + d + "]]");
        int row1 = a + b, row2 = c + d, col1 = a + c, n = a + b + c + d;
        int lo = Math.max(0, col1 - row2), hi = Math.min(row1, col1);
        double[] logFact = logFactorials(n);
        double observed = logP(a, row1, row2, col1, n, logFact);
        double p = 0;
        for (int x = lo; x <= hi; x++) {
            double lp = logP(x, row1, row2, col1, n, logFact);
            if (lp <= observed + RELATIVE_TOLERANCE) p += Math.exp(lp);
        }
        return new Result(a, b, c, d, Math.min(1.0, p));
    }

    /** log P(X = x) for the hypergeometric law of the top-left cell given the margins. */
    private static double logP(int x, int row1, int row2, int col1, int n, double[] lf) {
        return lf[row1]
                - lf[x]
                - lf[row1 - x]
                + lf[row2]
                - lf[col1 - x]
                - lf[row2 - col1 + x]
                - lf[n]
                + lf[col1]
                + lf[n - col1];
    }

    private static double[] logFactorials(int n) {
        double[] lf = new double[n + 1];
        for (int i = 1; i <= n; i++) lf[i] = lf[i - 1] + Math.log(i);
        return lf;
    }
}
