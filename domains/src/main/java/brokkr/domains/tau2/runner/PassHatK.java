package brokkr.domains.tau2.runner;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Upstream's run metrics ({@code src/tau2/metrics/agent_metrics.py}): average reward and pass^k, with
 * infrastructure failures excluded. A trial is a success when its reward is within 1e-6 of 1.
 */
public final class PassHatK {
    private PassHatK() {}

    /** One graded trial; {@code infrastructureFailure} trials are left out of every metric, as upstream. */
    public record Trial(String taskId, double reward, boolean infrastructureFailure) {}

    public record Metrics(double avgReward, Map<Integer, Double> passHatK, int evaluatedTrials, int tasks, int infrastructureFailures) {}

    /** Upstream {@code pass_hat_k}: C(successes, k) / C(trials, k). */
    public static double passHatK(int trials, int successes, int k) {
        if (trials < k) throw new IllegalArgumentException("Number of trials " + trials + " is less than k " + k + ".");
        return new java.math.BigDecimal(comb(successes, k)).divide(new java.math.BigDecimal(comb(trials, k)), java.math.MathContext.DECIMAL64).doubleValue();
    }

    static BigInteger comb(int n, int k) {
        if (k < 0 || k > n) return BigInteger.ZERO;
        BigInteger r = BigInteger.ONE;
        for (int i = 1; i <= k; i++) r = r.multiply(BigInteger.valueOf(n - k + i)).divide(BigInteger.valueOf(i));
        return r;
    }

    public static boolean isSuccessful(double reward) { return reward >= 1 - 1e-6 && reward <= 1 + 1e-6; }

    /**
     * Upstream {@code compute_metrics}: the mean reward over evaluated trials, and for k = 1 .. (fewest
     * trials of any task) the mean over tasks of that task's pass^k.
     */
    public static Metrics compute(List<Trial> trials) {
        int infra = (int) trials.stream().filter(Trial::infrastructureFailure).count();
        List<Trial> evaluated = trials.stream().filter(t -> !t.infrastructureFailure()).toList();
        if (evaluated.isEmpty()) return new Metrics(0.0, Map.of(), 0, 0, infra);
        Map<String, int[]> perTask = new TreeMap<>(); // [trials, successes]
        double sum = 0;
        for (Trial t : evaluated) {
            sum += t.reward();
            int[] c = perTask.computeIfAbsent(t.taskId(), id -> new int[2]);
            c[0]++;
            if (isSuccessful(t.reward())) c[1]++;
        }
        int maxK = perTask.values().stream().mapToInt(c -> c[0]).min().orElse(0);
        Map<Integer, Double> pass = new LinkedHashMap<>();
        for (int k = 1; k <= maxK; k++) {
            double s = 0;
            for (int[] c : perTask.values()) s += passHatK(c[0], c[1], k);
            pass.put(k, s / perTask.size());
        }
        return new Metrics(sum / evaluated.size(), pass, evaluated.size(), perTask.size(), infra);
    }
}
