package brokkr.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * numpy's pairwise float64 sum, bit for bit. The expected values were printed by numpy 2.4.6
 * ({@code float(np.sum(np.array(a)))}, {@code float(np.array(a).mean())}) for
 * {@code a = [((i*7919) % 396 + 5) / 10000.0 for i in range(n)]}; where they differ from Python's left-to-right
 * {@code sum(a)} (n = 129: 4.3077; n = 4097: 84.71250000000003) the grouping is what is tested.
 */
class NumpyFloatsTest {
    static double[] values(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) a[i] = ((i * 7919L) % 396 + 5) / 10000.0;
        return a;
    }

    @ParameterizedTest
    @CsvSource({
        "3, 0.0804, 0.0268",
        "8, 0.2784, 0.0348",
        "13, 0.4739, 0.036453846153846156",
        "100, 3.4754, 0.034754",
        "129, 4.3077000000000005, 0.033393023255813954",
        "300, 7.5054, 0.025018",
        "1000, 22.1864, 0.0221864",
        "4097, 84.7125, 0.0206767146692702"
    })
    void sumAndMeanAreNumpys(int n, double sum, double mean) {
        assertEquals(sum, NumpyFloats.sum(values(n)), 0.0);
        assertEquals(mean, NumpyFloats.mean(values(n)), 0.0);
    }

    @ParameterizedTest
    @CsvSource({"129", "4097"})
    void theGroupingDiffersFromLeftToRight(int n) {
        double naive = 0;
        for (double x : values(n)) naive += x;
        assertTrue(naive != NumpyFloats.sum(values(n)));
    }
}
