package brokkr.domains.tau2.runner;

import java.math.BigInteger;

/**
 * Upstream's per-trial seeds ({@code src/tau2/runner/batch.py}): {@code random.seed(config.seed)} then
 * {@code random.randint(0, 1000000)} once per trial, with CPython's Mersenne Twister. The orchestrator
 * hands trial {@code i}'s seed to the agent and the user simulator ({@code set_seed}), which send it as
 * the {@code seed} request parameter (litellm drops it for providers that do not support it); the judge
 * gets none. Upstream's default run seed is 300.
 */
public final class TrialSeeds {
    /** Upstream {@code DEFAULT_SEED}. */
    public static final long DEFAULT_RUN_SEED = 300;

    private static final int N = 624, M = 397;

    private TrialSeeds() {}

    /** The seeds of trials 0 .. trials-1 for a run seed. */
    public static long[] of(long runSeed, int trials) {
        Mt mt = new Mt(BigInteger.valueOf(runSeed).abs());
        long[] out = new long[trials];
        for (int i = 0; i < trials; i++) out[i] = mt.randbelow(1_000_001);
        return out;
    }

    /** CPython's {@code _random.Random}: MT19937 seeded by {@code init_by_array} over the seed's 32-bit words. */
    private static final class Mt {
        private final int[] mt = new int[N];
        private int index = N;

        Mt(BigInteger seed) {
            // random_seed(): abs(n) as little-endian 32-bit words; zero is the single word 0.
            int words = Math.max(1, (seed.bitLength() + 31) / 32);
            int[] key = new int[words];
            for (int i = 0; i < words; i++) key[i] = seed.shiftRight(32 * i).intValue();
            initGenrand(19650218);
            int i = 1, j = 0;
            for (int k = Math.max(N, key.length); k > 0; k--) {
                mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
                i++;
                j++;
                if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
                if (j >= key.length) j = 0;
            }
            for (int k = N - 1; k > 0; k--) {
                mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
                i++;
                if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
            }
            mt[0] = 0x80000000;
        }

        private void initGenrand(int s) {
            mt[0] = s;
            for (int i = 1; i < N; i++) mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
        }

        private int next32() {
            if (index >= N) {
                for (int k = 0; k < N; k++) {
                    int y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7fffffff);
                    mt[k] = mt[(k + M) % N] ^ (y >>> 1) ^ ((y & 1) != 0 ? 0x9908b0df : 0);
                }
                index = 0;
            }
            int y = mt[index++];
            y ^= y >>> 11;
            y ^= (y << 7) & 0x9d2c5680;
            y ^= (y << 15) & 0xefc60000;
            y ^= y >>> 18;
            return y;
        }

        /** {@code Random._randbelow_with_getrandbits(n)} for n below 2**32. */
        long randbelow(long n) {
            int k = 64 - Long.numberOfLeadingZeros(n);
            long r;
            do {
                r = (next32() & 0xffffffffL) >>> (32 - k);
            } while (r >= n);
            return r;
        }
    }
}
