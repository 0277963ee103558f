package brokkr.run;

import brokkr.conversation.Candidate;
import brokkr.conversation.SpendLimit;
import brokkr.telemetry.GenAiTrace;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How a plan runs, apart from what it runs: the operational settings, none of which changes what a
 * score means (so none is part of a cell's identity). {@code parallelism}: units at once;
 * {@code unitTimeout}: how long one unit may run before it is abandoned as an infrastructure failure;
 * {@code providerLimits}: each model provider's concurrency and call rate over the whole run (every
 * role of every unit that uses it); {@code cache}: what sits between a unit's model of a role and its
 * record (an experiment's model-call cache), none by default; {@code cancellation}: stops the run;
 * {@code cellLimit}: a fresh budget for each unit's candidate ({@link SpendLimit}), none by default;
 * {@code trace}: the OpenTelemetry GenAI spans of each unit ({@link GenAiTrace}), off by default.
 */
public record Policy(
        int parallelism,
        Duration unitTimeout,
        Map<String, Limit> providerLimits,
        ModelCacheHook cache,
        Cancellation cancellation,
        Supplier<SpendLimit> cellLimit,
        GenAiTrace trace) {
    /** The most units a run takes at once. */
    public static final int MAX_PARALLELISM = 10_000;

    /** A unit with no timeout of its own still ends: after a day it is abandoned. */
    public static final Duration NO_TIMEOUT = Duration.ofDays(1);

    public Policy {
        if (parallelism < 1) throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
        if (parallelism > MAX_PARALLELISM)
            throw new IllegalArgumentException(
                    "parallelism must be at most " + MAX_PARALLELISM + ", not " + parallelism);
        Objects.requireNonNull(unitTimeout, "unitTimeout");
        if (unitTimeout.isNegative() || unitTimeout.isZero())
            throw new IllegalArgumentException("a unit's timeout must be positive");
        providerLimits = Map.copyOf(providerLimits);
        cache = cache == null ? ModelCacheHook.NONE : cache;
        cancellation = cancellation == null ? new Cancellation() : cancellation;
        cellLimit = cellLimit == null ? () -> SpendLimit.NONE : cellLimit;
        trace = trace == null ? GenAiTrace.OFF : trace;
    }

    /** A policy without traces. */
    public Policy(
            int parallelism,
            Duration unitTimeout,
            Map<String, Limit> providerLimits,
            ModelCacheHook cache,
            Cancellation cancellation,
            Supplier<SpendLimit> cellLimit) {
        this(parallelism, unitTimeout, providerLimits, cache, cancellation, cellLimit, null);
    }

    /** A policy without a cell budget. */
    public Policy(
            int parallelism,
            Duration unitTimeout,
            Map<String, Limit> providerLimits,
            ModelCacheHook cache,
            Cancellation cancellation) {
        this(parallelism, unitTimeout, providerLimits, cache, cancellation, null, null);
    }

    /** {@code parallelism} units at once, no provider limits, no cache, no timeout of their own. */
    public static Policy of(int parallelism) {
        return new Policy(parallelism, NO_TIMEOUT, Map.of(), null, null);
    }

    public Policy withTimeout(Duration d) {
        return new Policy(parallelism, d, providerLimits, cache, cancellation, cellLimit, trace);
    }

    public Policy withProviderLimits(Map<String, Limit> l) {
        return new Policy(parallelism, unitTimeout, l, cache, cancellation, cellLimit, trace);
    }

    public Policy withCache(ModelCacheHook c) {
        return new Policy(parallelism, unitTimeout, providerLimits, c, cancellation, cellLimit, trace);
    }

    public Policy withCancellation(Cancellation c) {
        return new Policy(parallelism, unitTimeout, providerLimits, cache, c, cellLimit, trace);
    }

    public Policy withCellLimit(Supplier<SpendLimit> l) {
        return new Policy(parallelism, unitTimeout, providerLimits, cache, cancellation, l, trace);
    }

    public Policy withTrace(GenAiTrace t) {
        return new Policy(parallelism, unitTimeout, providerLimits, cache, cancellation, cellLimit, t);
    }

    /** A provider's limits: at most {@code concurrency} calls at once, {@code ratePerSecond} call starts per second (0: unlimited). */
    public record Limit(int concurrency, double ratePerSecond) {}

    /**
     * What sits between a unit's model and its record, per role: the experiment's model-call cache
     * serves a recorded response instead of sending the request. {@code model} is the provider's own
     * candidate (the cache reads its exact requests), {@code gated} the same behind the provider's
     * gate (what a miss sends through).
     */
    public interface ModelCacheHook {
        Candidate around(Job<?> job, String role, Candidate model, Candidate gated);

        ModelCacheHook NONE = (job, role, model, gated) -> gated;
    }
}
