package brokkr.experiment;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * pass^k as upstream tau2 computes it (src/tau2/metrics/agent_metrics.py, {@code pass_hat_k} and
 * {@code get_tasks_pass_hat_k}): per task {@code comb(successes, k) / comb(trials, k)}, averaged over
 * tasks, for k = 1 up to the smallest number of trials any task has (upstream lowers max k to that
 * minimum with a warning). {@code comb(s, k)} is 0 when k > s, so such a task contributes 0.
 */
public final class PassHatK {
    private PassHatK() {}

    /** Trials and successes of one task. */
    public record TaskTrials(int trials, int successes) {
        public TaskTrials {
            if (trials < 0 || successes < 0 || successes > trials)
                throw new IllegalArgumentException("bad trials/successes " + trials + "/" + successes);
        }
    }

    /** Upstream {@code pass_hat_k}: IllegalArgumentException when trials < k, as upstream raises ValueError. */
    public static double of(int trials, int successes, int k) {
        if (k < 1) throw new IllegalArgumentException("k must be >= 1");
        if (trials < k) throw new IllegalArgumentException("Number of trials " + trials + " is less than k " + k + ".");
        BigInteger num = comb(successes, k);
        BigInteger den = comb(trials, k);
        // Python's int / int is correctly rounded; exact big-decimal division then rounding to double
        // agrees except in ties far below a scorecard's precision.
        return new BigDecimal(num)
                .divide(new BigDecimal(den), MathContext.DECIMAL128)
                .doubleValue();
    }

    /** Python's {@code math.comb}: 0 when k > n. */
    public static BigInteger comb(int n, int k) {
        if (k < 0 || n < 0) throw new IllegalArgumentException("comb of negative numbers");
        if (k > n) return BigInteger.ZERO;
        k = Math.min(k, n - k);
        BigInteger r = BigInteger.ONE;
        for (int i = 1; i <= k; i++)
            r = r.multiply(BigInteger.valueOf(n - k + i)).divide(BigInteger.valueOf(i));
        return r;
    }

    /** The largest k reported: the smallest trial count over tasks (0 without tasks). */
    public static int maxK(Collection<TaskTrials> tasks) {
        return tasks.stream().mapToInt(TaskTrials::trials).min().orElse(0);
    }

    /** pass^1..pass^maxK averaged over tasks (empty without tasks). */
    public static List<Double> curve(Collection<TaskTrials> tasks) {
        int maxK = maxK(tasks);
        List<Double> out = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) {
            double sum = 0;
            for (TaskTrials t : tasks) sum += of(t.trials(), t.successes(), k);
            out.add(sum / tasks.size());
        }
        return out;
    }
}
