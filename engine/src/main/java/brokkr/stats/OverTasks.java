package brokkr.stats;

import java.util.Arrays;
import java.util.List;

/**
 * Means over tasks with task-clustered standard errors. A task is a cluster of {@code n} scored
 * trials with mean {@code m}; the estimate is the mean over all trials (upstream tau2's average reward:
 * {@code sum n_t m_t / N}) and its variance the cluster-robust (CR1) one,
 * {@code T/(T-1) * sum_t (n_t (m_t - m))^2 / N^2}: residuals summed within a task before squaring,
 * because trials of one task are correlated. With the same number of trials in every task this is
 * exactly {@code sd(m_t)^2 / T}, the variance of a mean of T task means; with one value per task
 * (pass^k's per-task estimates, paired differences) it is the ordinary {@code s^2 / T}.
 */
public final class OverTasks {
    private OverTasks() {}

    /** One task: {@code n >= 1} scored trials with mean {@code mean}. */
    public record Cluster(int n, double mean) {
        public Cluster {
            if (n < 1) throw new IllegalArgumentException("a task needs at least one scored trial, got " + n);
            if (Double.isNaN(mean)) throw new IllegalArgumentException("a task's mean is NaN");
        }
    }

    /** The mean over the clusters' trials, its clustered standard error and 95% t interval (T - 1 df). */
    public static Estimate mean(List<Cluster> clusters) {
        int t = clusters.size();
        if (t == 0) return Estimate.NONE;
        double m = pooledMean(clusters);
        if (t == 1) return new Estimate(m, Double.NaN, 1, Estimate.Interval.NONE);
        double se =
                Math.sqrt((double) t / (t - 1) * sumOfSquaredClusterResiduals(clusters, m) / square(trials(clusters)));
        double half = Student.critical95(t - 1) * se;
        return new Estimate(m, se, t, new Estimate.Interval(m - half, m + half));
    }

    /** The mean of one value per task: {@link #mean(List)} with every task a cluster of one. */
    public static Estimate mean(double[] perTask) {
        return mean(units(perTask));
    }

    /** Each value its own cluster of one trial. */
    public static List<Cluster> units(double[] perTask) {
        return Arrays.stream(perTask).mapToObj(v -> new Cluster(1, v)).toList();
    }

    static double pooledMean(List<Cluster> clusters) {
        double s = 0;
        for (Cluster c : clusters) s += c.n() * c.mean();
        return s / trials(clusters);
    }

    static long trials(List<Cluster> clusters) {
        long n = 0;
        for (Cluster c : clusters) n += c.n();
        return n;
    }

    /** {@code sum_t (n_t (m_t - m))^2}: each task's residuals summed, then squared. */
    static double sumOfSquaredClusterResiduals(List<Cluster> clusters, double m) {
        double s = 0;
        for (Cluster c : clusters) s += square(c.n() * (c.mean() - m));
        return s;
    }

    static double square(double x) {
        return x * x;
    }
}
