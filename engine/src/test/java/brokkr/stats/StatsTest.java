package brokkr.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every formula of {@code brokkr.stats} against values computed independently: by hand (worked in the
 * comments), from published tables, and from R's and SciPy's documented outputs, as stated at each.
 */
class StatsTest {
    private static final double[] SLEEP_GROUP1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    private static final double[] SLEEP_GROUP2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

    /** Two-sided 95% critical values of t from the NIST/SEMATECH e-Handbook, table 1.4.2.7.3 (upper 0.025 column). */
    @Test
    void tQuantilesMatchThePublishedTable() {
        int[] df = {1, 2, 4, 9, 19, 29, 100};
        double[] table = {12.706, 4.303, 2.776, 2.262, 2.093, 2.045, 1.984};
        for (int i = 0; i < df.length; i++) assertEquals(table[i], Student.critical95(df[i]), 5e-4, "df " + df[i]);
        // One-sided 0.20 column of the usual t tables (e.g. Bloom 1995's multipliers): t_0.80.
        assertEquals(0.883, Student.quantile(0.80, 9), 5e-4);
        assertEquals(0.861, Student.quantile(0.80, 19), 5e-4);
        // t with 1 df is Cauchy: P(|T| >= 1) = 1/2 exactly.
        assertEquals(0.5, Student.twoSidedP(1.0, 1), 1e-12);
        assertEquals(0.05, Student.twoSidedP(2.262157, 9), 1e-6);
        assertEquals(0.0, Student.twoSidedP(Double.POSITIVE_INFINITY, 3));
    }

    /**
     * Unequal trials: tasks of 2 trials (mean 1), 2 (mean 0.5) and 4 (mean 0.25). N = 8, m = 4/8 = 0.5;
     * residuals summed per task 2*0.5 = 1, 0, 4*(-0.25) = -1; CR1 variance 3/2 * (1 + 0 + 1) / 64 = 3/64,
     * se = sqrt(3)/8 = 0.216506; 95% half-width 4.302653 (t, 2 df) * se = 0.931552.
     */
    @Test
    void clusteredStandardErrorByHand() {
        Estimate e = OverTasks.mean(
                List.of(new OverTasks.Cluster(2, 1.0), new OverTasks.Cluster(2, 0.5), new OverTasks.Cluster(4, 0.25)));
        assertEquals(0.5, e.value(), 1e-12);
        assertEquals(Math.sqrt(3) / 8, e.se(), 1e-12);
        assertEquals(3, e.tasks());
        assertEquals(2, e.df());
        assertEquals(0.5 - 0.9315516419, e.t95().low(), 1e-9);
        assertEquals(0.5 + 0.9315516419, e.t95().high(), 1e-9);
        assertEquals(new Estimate.Interval(0, 1), e.clippedTo(0, 1).t95());
    }

    /**
     * Equal trials: the clustered se is sd(task means)/sqrt(T). Means 1, 1/3, 2/3 of 3 trials each:
     * deviations 1/3, -1/3, 0, s^2 = (2/9)/2 = 1/9, se = (1/3)/sqrt(3) = 0.19245; attempts treated as
     * independent would give a smaller one.
     */
    @Test
    void withEqualTrialsTheClusteredErrorIsTheErrorOfTaskMeans() {
        Estimate clustered = OverTasks.mean(List.of(
                new OverTasks.Cluster(3, 1.0), new OverTasks.Cluster(3, 1.0 / 3), new OverTasks.Cluster(3, 2.0 / 3)));
        Estimate ofMeans = OverTasks.mean(new double[] {1.0, 1.0 / 3, 2.0 / 3});
        assertEquals(1 / (3 * Math.sqrt(3)), clustered.se(), 1e-12);
        assertEquals(ofMeans.se(), clustered.se(), 1e-12);
        assertEquals(ofMeans.t95(), clustered.t95());
        // 9 attempts, 6 successes, as if independent: sqrt(p(1-p)/(N-1)) = sqrt((2/9)/8) = 0.1667 < 0.19245.
        assertTrue(Math.sqrt(2.0 / 9 / 8) < clustered.se());
    }

    @Test
    void degenerateEstimates() {
        assertFalse(OverTasks.mean(List.of()).defined(), "no task: nothing, never 0");
        assertTrue(Double.isNaN(OverTasks.mean(new double[0]).value()));
        Estimate one = OverTasks.mean(List.of(new OverTasks.Cluster(4, 0.75)));
        assertEquals(0.75, one.value());
        assertTrue(Double.isNaN(one.se()), "one task: no spread to estimate from");
        assertFalse(one.t95().defined());
        Estimate equal = OverTasks.mean(new double[] {1, 1, 1, 1});
        assertEquals(0.0, equal.se());
        assertEquals(new Estimate.Interval(1, 1), equal.t95());
    }

    /** Newcombe 1998 (Statistics in Medicine 17:857-872), table I, method 3 (Wilson score, no continuity correction). */
    @Test
    void wilsonMatchesNewcombesTable() {
        double z = 1.959963984540054;
        assertInterval(0.2553, 0.3662, Wilson.interval(81.0 / 263, 263, z), 5e-5);
        assertInterval(0.0624, 0.1605, Wilson.interval(15.0 / 148, 148, z), 5e-5);
        assertInterval(0.0000, 0.1611, Wilson.interval(0.0 / 20, 20, z), 5e-5);
        assertInterval(0.0061, 0.1718, Wilson.interval(1.0 / 29, 29, z), 5e-5);
        assertFalse(Wilson.interval(0.5, 0, z).defined());
        assertFalse(Wilson.interval(1.5, 10, z).defined(), "not a rate");
    }

    /**
     * The difference of two independent rates: Newcombe 1998 (Statistics in Medicine 17:873-890), table II, method
     * 10 (the hybrid score interval), its examples (a), (b), (d), (e), (g) and (h): at 0/n and n/n it keeps a width
     * and stays inside [-1, 1].
     */
    @Test
    void differenceMatchesNewcombesHybridScoreInterval() {
        assertInterval(0.0524, 0.3339, Wilson.difference(56, 70, 48, 80), 5e-5);
        assertInterval(0.1705, 0.8090, Wilson.difference(9, 10, 3, 10), 5e-5);
        assertInterval(-0.0381, 0.1926, Wilson.difference(5, 56, 0, 29), 5e-5);
        assertInterval(-0.1611, 0.2775, Wilson.difference(0, 10, 0, 20), 5e-5);
        assertInterval(0.6791, 1.0000, Wilson.difference(10, 10, 0, 20), 5e-5);
        assertInterval(0.6075, 1.0000, Wilson.difference(10, 10, 0, 10), 5e-5);
        assertFalse(Wilson.difference(1, 0, 0, 5).defined());
        assertFalse(Wilson.difference(6, 5, 0, 5).defined(), "more successes than trials");
    }

    /**
     * The clustered form: one trial per task is the textbook interval with t(T-1) for z (8 of 10:
     * [0.444529, 0.952365], SciPy t.ppf(0.975, 9) in the Wilson formula); every trial passed keeps a width
     * on T tasks, not on the N trials ([0.661491, 1]); the design effect: tasks of 2 trials with means 1, 0
     * and 0.5: p = 0.5, CR0 variance (1 + 1 + 0)/36, n_eff = 0.25/(2/36) = 4.5, Wilson(0.5, 4.5, t 2 df)
     * = [0.051542, 0.948458].
     */
    @Test
    void clusteredWilsonByHand() {
        List<OverTasks.Cluster> eightOfTen = new ArrayList<>();
        for (int i = 0; i < 10; i++) eightOfTen.add(new OverTasks.Cluster(1, i < 8 ? 1 : 0));
        assertInterval(0.44452949829, 0.95236532811, Wilson.clustered(eightOfTen), 1e-9);
        assertEquals(Wilson.interval(0.8, 10, Student.critical95(9)), Wilson.clustered(eightOfTen));
        List<OverTasks.Cluster> allPass = Collections.nCopies(10, new OverTasks.Cluster(3, 1.0));
        assertInterval(0.66149137734, 1.0, Wilson.clustered(allPass), 1e-9);
        assertInterval(
                0.05154241435,
                0.94845758565,
                Wilson.clustered(List.of(
                        new OverTasks.Cluster(2, 1), new OverTasks.Cluster(2, 0), new OverTasks.Cluster(2, 0.5))),
                1e-9);
        assertFalse(Wilson.clustered(List.of(new OverTasks.Cluster(5, 1))).defined(), "one task");
        assertTrue(Wilson.preferred(29, 0.5));
        assertFalse(Wilson.preferred(30, 0.5));
        assertTrue(Wilson.preferred(100, 0.95));
    }

    /**
     * Student's sleep data (Cushny and Peebles; R's {@code sleep}), whose paired t test R documents in
     * {@code ?t.test}: {@code t.test(extra ~ group, data = sleep, paired = TRUE)} gives t = -4.0621,
     * df = 9, p-value = 0.002833, 95% interval [-2.4598858, -0.7001142], mean difference -1.58.
     * MDE: (t_0.975,9 + t_0.80,9) * se = (2.262157 + 0.883404) * 0.388959 = 1.223493 (SciPy).
     */
    @Test
    void pairedTMatchesRsSleepExample() {
        Paired p = Paired.of(SLEEP_GROUP1, SLEEP_GROUP2);
        assertEquals(10, p.tasks());
        assertEquals(-1.58, p.difference().value(), 1e-12);
        assertEquals(1.58 / 4.0621277, p.difference().se(), 1e-7);
        assertEquals(0.002832890, p.pT(), 1e-9);
        assertInterval(-2.4598858, -0.7001142, p.difference().t95(), 1e-7);
        assertEquals(0.75, p.meanA(), 1e-12);
        assertEquals(2.33, p.meanB(), 1e-12);
        assertEquals(1.2234934, p.mde80(), 1e-6);
        // Exact sign flip over 2^10: only the observed signs, all flipped, and the two with the 0.0
        // difference flipped reach |sum| = 15.8: 4/1024 (counted by brute force in Python's itertools).
        assertEquals(4.0 / 1024, p.signFlip().p(), 1e-15);
        assertTrue(p.signFlip().exact());
        assertEquals("exact over 2^10 sign assignments", p.signFlip().method());
    }

    /** Hand-counted sign flips: [1, 1, 1] reaches |sum| 3 only as +++ and ---: 2/8. */
    @Test
    void signFlipByHand() {
        assertEquals(0.25, SignFlip.test(new double[] {1, 1, 1}).p());
        // [1, -1]: sums 0, 2, -2, 0; observed |0|: all four reach it.
        assertEquals(1.0, SignFlip.test(new double[] {1, -1}).p());
        // [2, 1]: sums 3, 1, -1, -3; observed 3: two of four.
        assertEquals(0.5, SignFlip.test(new double[] {2, 1}).p());
        assertEquals(1.0, SignFlip.test(new double[] {0.5}).p(), "one task can never be significant");
        assertTrue(Double.isNaN(SignFlip.test(new double[0]).p()));
    }

    /**
     * Beyond 20 tasks: Monte Carlo with the fixed seed, the same p on every run, within Monte-Carlo
     * error of the exact p (counted here independently by dynamic programming over integer sums).
     */
    @Test
    void signFlipMonteCarloIsSeededAndNearTheExactValue() {
        int[] d = new int[24];
        for (int i = 0; i < d.length; i++) d[i] = i < 14 ? 1 : i < 18 ? -1 : 0; // observed sum 10
        double[] dd = Arrays.stream(d).asDoubleStream().toArray();
        SignFlip.Result r = SignFlip.test(dd);
        assertFalse(r.exact());
        assertEquals(SignFlip.DRAWS, r.assignments());
        assertEquals(r, SignFlip.test(dd), "seeded: the same p every time");
        assertEquals("Monte Carlo, 100000 draws, seed 20240601", r.method());
        double exact = exactByCounting(d);
        // 18 nonzero +-1 differences: P(|sum| >= 10) = 2 * P(Binomial(18, 1/2) >= 14) = 2 * 4048 / 2^18.
        assertEquals(2.0 * (3060 + 816 + 153 + 18 + 1) / (1 << 18), exact, 1e-15);
        assertEquals(exact, r.p(), 4 * Math.sqrt(exact * (1 - exact) / SignFlip.DRAWS) + 1e-5);
        // Never 0: 25 equal differences are exactly 2/2^25, the Monte-Carlo estimate is 1/(1 + draws).
        double[] same = new double[25];
        Arrays.fill(same, 1.0);
        assertEquals(1.0 / (1 + SignFlip.DRAWS), SignFlip.test(same).p(), 1e-15);
    }

    /** P(|sum of s_i d_i| >= |sum d_i|) over all sign vectors, by counting the distribution of sums. */
    private static double exactByCounting(int[] d) {
        int max = Arrays.stream(d).map(Math::abs).sum();
        double[] ways = new double[2 * max + 1];
        ways[max] = 1;
        for (int x : d) {
            double[] next = new double[ways.length];
            for (int s = 0; s < ways.length; s++) {
                if (ways[s] == 0) continue;
                next[s + x] += ways[s];
                next[s - x] += ways[s];
            }
            ways = next;
        }
        int observed = Math.abs(Arrays.stream(d).sum());
        double hits = 0, all = 0;
        for (int s = 0; s < ways.length; s++) {
            all += ways[s];
            if (Math.abs(s - max) >= observed) hits += ways[s];
        }
        return hits / all;
    }

    /** One task, all equal, constant non-zero differences: what is undefined stays NaN (shown "–"), never 0. */
    @Test
    void degeneratePairs() {
        Paired one = Paired.of(new double[] {1}, new double[] {0});
        assertEquals(1.0, one.difference().value());
        assertTrue(Double.isNaN(one.difference().se()));
        assertTrue(Double.isNaN(one.pT()));
        assertTrue(Double.isNaN(one.mde80()));
        assertEquals(1.0, one.signFlip().p());

        Paired equal = Paired.of(new double[] {1, 0, 1}, new double[] {1, 0, 1});
        assertEquals(0.0, equal.difference().value());
        assertEquals(0.0, equal.difference().se());
        assertTrue(Double.isNaN(equal.pT()), "0/0: the t statistic is undefined");
        assertEquals(1.0, equal.signFlip().p());
        assertEquals(0.0, equal.mde80());

        Paired constant = Paired.of(new double[] {1, 1, 1, 1}, new double[] {0, 0, 0, 0});
        assertTrue(Double.isNaN(constant.pT()));
        assertEquals(2.0 / 16, constant.signFlip().p());

        Paired none = Paired.of(new double[0], new double[0]);
        assertFalse(none.difference().defined());
        assertTrue(Double.isNaN(none.meanA()));
        assertNotEquals(0.0, none.signFlip().p());
    }

    private static void assertInterval(double low, double high, Estimate.Interval i, double tolerance) {
        assertEquals(low, i.low(), tolerance, "low of " + i);
        assertEquals(high, i.high(), tolerance, "high of " + i);
    }
}
