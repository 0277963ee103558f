package brokkr.python;

/**
 * numpy's float64 reductions as pandas calls them ({@code Series.mean()} → {@code values.sum() / count}), to
 * the bit: {@code np.add.reduce} starts from the identity 0.0 and adds numpy's pairwise sum of the array
 * ({@code pairwise_sum} in {@code numpy/_core/src/umath/loops_utils.h.src}: fewer than 8 values summed in
 * order; up to 128 in eight interleaved partial sums combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then
 * the tail in order; longer arrays split at half rounded down to a multiple of 8 and summed recursively).
 */
public final class NumpyFloats {
    private NumpyFloats() {}

    private static final int BLOCK = 128;

    /** {@code np.sum(values)} of a float64 array. */
    public static double sum(double[] values) {
        return 0.0 + pairwise(values, 0, values.length);
    }

    /** pandas' {@code Series.mean()} of values without NaN; NaN for none (pandas gives NaN too). */
    public static double mean(double[] values) {
        return values.length == 0 ? Double.NaN : sum(values) / values.length;
    }

    private static double pairwise(double[] a, int from, int n) {
        if (n < 8) {
            double res = 0.0;
            for (int i = 0; i < n; i++) res += a[from + i];
            return res;
        }
        if (n <= BLOCK) {
            double[] r = new double[8];
            for (int j = 0; j < 8; j++) r[j] = a[from + j];
            int i;
            for (i = 8; i < n - (n % 8); i += 8) for (int j = 0; j < 8; j++) r[j] += a[from + i + j];
            double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            for (; i < n; i++) res += a[from + i];
            return res;
        }
        int n2 = n / 2;
        n2 -= n2 % 8;
        return pairwise(a, from, n2) + pairwise(a, from + n2, n - n2);
    }
}
