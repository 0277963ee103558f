package brokkr.eval;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The record of one evaluation of one cell (environment × agent × repetition). A completed attempt
 * carries the verdict; an infrastructure failure (retries exhausted, timeout, harness error) carries
 * the error instead and is excluded from every metric. Both keep the evidence gathered so far.
 *
 * @param id the store's id, 0 before the attempt is stored
 */
public record Attempt(
        long id,
        String environmentId,
        String agentId,
        int repetition,
        String taskId,
        Status status,
        List<Check> checks,
        double reward,
        TrustTier trust,
        Evidence evidence,
        String error,
        long startedAtMillis,
        long durationMillis) {

    public enum Status {
        COMPLETED("completed"),
        INFRASTRUCTURE_FAILURE("infrastructure_failure");
        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        public static Status fromWire(String s) {
            for (Status st : values()) if (st.wire.equals(s)) return st;
            throw new IllegalArgumentException("unknown attempt status " + s);
        }
    }

    public Attempt {
        Objects.requireNonNull(environmentId);
        Objects.requireNonNull(agentId);
        Objects.requireNonNull(status);
        Objects.requireNonNull(evidence);
        checks = List.copyOf(checks);
        if (status == Status.COMPLETED && trust == null)
            throw new IllegalArgumentException("a completed attempt needs a trust tier");
    }

    public boolean completed() {
        return status == Status.COMPLETED;
    }

    /** Upstream tau2 {@code is_successful}: reward within 1e-6 of 1. */
    public boolean success() {
        return completed() && Math.abs(reward - 1.0) <= 1e-6;
    }

    public Optional<Check> check(String name) {
        return checks.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public Attempt withId(long newId) {
        return new Attempt(
                newId,
                environmentId,
                agentId,
                repetition,
                taskId,
                status,
                checks,
                reward,
                trust,
                evidence,
                error,
                startedAtMillis,
                durationMillis);
    }
}
