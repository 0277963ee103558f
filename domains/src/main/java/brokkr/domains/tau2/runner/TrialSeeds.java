package brokkr.domains.tau2.runner;

import brokkr.python.PyRandom;

/**
 * Upstream's per-trial seeds ({@code src/tau2/runner/batch.py}): {@code random.seed(config.seed)} then
 * {@code random.randint(0, 1000000)} once per trial, with CPython's Mersenne Twister ({@link PyRandom}). The orchestrator
 * hands trial {@code i}'s seed to the agent and the user simulator ({@code set_seed}), which send it as
 * the {@code seed} request parameter (litellm drops it for providers that do not support it); the judge
 * gets none. Upstream's default run seed is 300.
 */
public final class TrialSeeds {
    /** Upstream {@code DEFAULT_SEED}. */
    public static final long DEFAULT_RUN_SEED = 300;

    private TrialSeeds() {}

    /** The seeds of trials 0 .. trials-1 for a run seed. */
    public static long[] of(long runSeed, int trials) {
        PyRandom random = PyRandom.seeded(runSeed);
        long[] out = new long[trials];
        for (int i = 0; i < trials; i++) {
            PyRandom.Draw<Long> d = random.randint(0, 1_000_000);
            out[i] = d.value();
            random = d.next();
        }
        return out;
    }
}
