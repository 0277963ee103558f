package brokkr.python;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * CPython's {@code random.Random} (CPython 3.11, Modules/_randommodule.c and Lib/random.py), bit for
 * bit, as an immutable value: the Mersenne Twister MT19937 state after a twist plus the position of the
 * next output word. A draw returns the drawn value and the generator after it ({@link Draw}); the
 * generator it was drawn from is unchanged, so a world holding one forks in O(1). The 624-word state
 * array is never written after it is built: a twist (every 624 words) makes a new array.
 *
 * <p>Seeding as {@code random.Random(a)} / {@code seed(a)} with {@code version=2}: an int seeds
 * {@code init_by_array} with the 32-bit little-endian words of {@code abs(a)} (one zero word for 0);
 * a str becomes the int {@code int.from_bytes(a.encode() + sha512(a.encode()).digest(), 'big')} first.
 * Methods: {@link #random}, {@link #getrandbits}, {@link #randbelow} ({@code _randbelow_with_getrandbits}),
 * {@link #randrange}, {@link #randint}, {@link #uniform}, {@link #choice}, {@link #shuffle}; error
 * texts are CPython 3.11's.
 */
public final class PyRandom {
    private static final int N = 624;
    private static final int M = 397;
    private static final int MATRIX_A = 0x9908b0df;
    private static final int UPPER_MASK = 0x80000000;
    private static final int LOWER_MASK = 0x7fffffff;

    private final int[] mt; // never mutated once this value exists
    private final int index; // next word of mt to temper; N means "twist first"

    private PyRandom(int[] mt, int index) {
        this.mt = mt;
        this.index = index;
    }

    /** A value drawn and the generator after the draw. */
    public record Draw<T>(T value, PyRandom next) {}

    /** {@code random.Random(seed)} for an int seed. */
    public static PyRandom seeded(long seed) {
        return seeded(BigInteger.valueOf(seed));
    }

    /**
     * Generators by seed: a generator is an immutable value and a pure function of its seed, and a process replaying
     * BFCL's corpora seeds the same few backends' generators thousands of times (each seeding is three passes over 624
     * words). Bounded; {@link #forgetSeeds} empties it (a benchmark's run starts as a fresh process).
     */
    private static final java.util.Map<BigInteger, PyRandom> SEEDED = new java.util.concurrent.ConcurrentHashMap<>();

    private static final int SEEDED_KEPT = 4096;

    /** Forgets the generators {@link #seeded} remembers. */
    public static void forgetSeeds() {
        SEEDED.clear();
    }

    /** {@code random.Random(seed)} for an int seed (sign ignored: CPython seeds with {@code abs(seed)}). */
    public static PyRandom seeded(BigInteger seed) {
        PyRandom known = SEEDED.get(seed);
        if (known != null) return known;
        PyRandom r = seed(seed);
        if (SEEDED.size() < SEEDED_KEPT) SEEDED.put(seed, r);
        return r;
    }

    private static PyRandom seed(BigInteger seed) {
        BigInteger n = seed.abs();
        int bits = n.bitLength();
        int words = bits == 0 ? 1 : (bits - 1) / 32 + 1;
        int[] key = new int[words];
        for (int i = 0; i < words; i++) key[i] = n.shiftRight(32 * i).intValue();
        return new PyRandom(initByArray(key), N);
    }

    /** {@code random.Random(seed)} for a str seed (Lib/random.py {@code Random.seed}, version 2). */
    public static PyRandom seeded(String seed) {
        byte[] utf8 = seed.getBytes(StandardCharsets.UTF_8);
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-512").digest(utf8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is a required JDK algorithm", e);
        }
        byte[] all = new byte[utf8.length + digest.length];
        System.arraycopy(utf8, 0, all, 0, utf8.length);
        System.arraycopy(digest, 0, all, utf8.length, digest.length);
        return seeded(new BigInteger(1, all));
    }

    private static int[] initGenrand(int s) {
        int[] mt = new int[N];
        mt[0] = s;
        for (int i = 1; i < N; i++) mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
        return mt;
    }

    /** {@code init_genrand(19650218)}, where every {@code init_by_array} starts. */
    private static final int[] GENRAND_19650218 = initGenrand(19650218);

    private static int[] initByArray(int[] key) {
        int[] mt = GENRAND_19650218.clone();
        int i = 1, j = 0;
        for (int k = Math.max(N, key.length); k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1664525)) + key[j] + j;
            i++;
            j++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if (j >= key.length) j = 0;
        }
        for (int k = N - 1; k > 0; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >>> 30)) * 1566083941)) - i;
            i++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = UPPER_MASK;
        return mt;
    }

    private static int[] twist(int[] old) {
        int[] mt = old.clone();
        int kk = 0;
        for (; kk < N - M; kk++) {
            int y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
            mt[kk] = mt[kk + M] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
        }
        for (; kk < N - 1; kk++) {
            int y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
            mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
        }
        int y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
        mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
        return mt;
    }

    /**
     * A mutable walk over the output words, for methods that draw several words; {@link #state} is the
     * generator after the words taken so far.
     */
    private static final class Cursor {
        int[] mt;
        int index;

        Cursor(PyRandom r) {
            mt = r.mt;
            index = r.index;
        }

        /** {@code genrand_uint32}, unsigned in a long. */
        long next32() {
            if (index >= N) {
                mt = twist(mt);
                index = 0;
            }
            int y = mt[index++];
            y ^= y >>> 11;
            y ^= (y << 7) & 0x9d2c5680;
            y ^= (y << 15) & 0xefc60000;
            y ^= y >>> 18;
            return y & 0xffffffffL;
        }

        /** {@code random_random}: 53 bits from two words. */
        double random() {
            long a = next32() >>> 5, b = next32() >>> 6;
            return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
        }

        /** {@code _random_Random_getrandbits_impl}: words little-endian, the last one's low bits dropped. */
        BigInteger getrandbits(int k) {
            if (k < 0) throw PyException.valueError("number of bits must be non-negative");
            if (k == 0) return BigInteger.ZERO;
            if (k <= 32) return BigInteger.valueOf(next32() >>> (32 - k));
            BigInteger r = BigInteger.ZERO;
            int shift = 0;
            for (int left = k; left > 0; left -= 32, shift += 32) {
                long w = next32();
                if (left < 32) w >>>= (32 - left);
                r = r.or(BigInteger.valueOf(w).shiftLeft(shift));
            }
            return r;
        }

        /** {@code Random._randbelow_with_getrandbits} (3.11): {@code k = n.bit_length()}, redraw while {@code r >= n}. */
        BigInteger randbelow(BigInteger n) {
            int k = n.bitLength();
            BigInteger r = getrandbits(k);
            while (r.compareTo(n) >= 0) r = getrandbits(k);
            return r;
        }

        PyRandom state() {
            return new PyRandom(mt, index);
        }
    }

    /** {@code random()}: a float in [0, 1). */
    public Draw<Double> random() {
        Cursor c = new Cursor(this);
        double v = c.random();
        return new Draw<>(v, c.state());
    }

    /** {@code getrandbits(k)}. */
    public Draw<BigInteger> getrandbits(int k) {
        Cursor c = new Cursor(this);
        BigInteger v = c.getrandbits(k);
        return new Draw<>(v, c.state());
    }

    /** {@code _randbelow(n)}, defined for {@code n > 0}. */
    public Draw<BigInteger> randbelow(BigInteger n) {
        if (n.signum() <= 0) throw new IllegalArgumentException("_randbelow is defined for n > 0, got " + n);
        Cursor c = new Cursor(this);
        BigInteger v = c.randbelow(n);
        return new Draw<>(v, c.state());
    }

    /** {@code randrange(stop)}. */
    public Draw<BigInteger> randrange(BigInteger stop) {
        if (stop.signum() > 0) return randbelow(stop);
        throw PyException.valueError("empty range for randrange()");
    }

    /** {@code randrange(start, stop)}. */
    public Draw<BigInteger> randrange(BigInteger start, BigInteger stop) {
        return randrange(start, stop, BigInteger.ONE);
    }

    /** {@code randrange(start, stop, step)} for int arguments (Lib/random.py 3.11). */
    public Draw<BigInteger> randrange(BigInteger start, BigInteger stop, BigInteger step) {
        BigInteger width = stop.subtract(start);
        if (step.equals(BigInteger.ONE)) {
            if (width.signum() > 0) {
                Draw<BigInteger> d = randbelow(width);
                return new Draw<>(start.add(d.value()), d.next());
            }
            throw PyException.valueError("empty range for randrange() (" + start + ", " + stop + ", " + width + ")");
        }
        BigInteger n;
        if (step.signum() > 0) n = floorDiv(width.add(step).subtract(BigInteger.ONE), step);
        else if (step.signum() < 0) n = floorDiv(width.add(step).add(BigInteger.ONE), step);
        else throw PyException.valueError("zero step for randrange()");
        if (n.signum() <= 0) throw PyException.valueError("empty range for randrange()");
        Draw<BigInteger> d = randbelow(n);
        return new Draw<>(start.add(step.multiply(d.value())), d.next());
    }

    private static BigInteger floorDiv(BigInteger a, BigInteger b) {
        BigInteger[] qr = a.divideAndRemainder(b);
        return qr[1].signum() != 0 && qr[1].signum() != b.signum() ? qr[0].subtract(BigInteger.ONE) : qr[0];
    }

    /** {@code randint(a, b)}: {@code randrange(a, b + 1)}. */
    public Draw<BigInteger> randint(BigInteger a, BigInteger b) {
        return randrange(a, b.add(BigInteger.ONE));
    }

    /** {@code randint(a, b)} for bounds that fit a long. */
    public Draw<Long> randint(long a, long b) {
        Draw<BigInteger> d = randint(BigInteger.valueOf(a), BigInteger.valueOf(b));
        return new Draw<>(d.value().longValueExact(), d.next());
    }

    /** {@code uniform(a, b)}: {@code a + (b - a) * random()}. */
    public Draw<Double> uniform(double a, double b) {
        Draw<Double> d = random();
        return new Draw<>(a + (b - a) * d.value(), d.next());
    }

    /** {@code choice(seq)}. */
    public <T> Draw<T> choice(List<T> seq) {
        if (seq.isEmpty()) throw new PyException("IndexError", "Cannot choose from an empty sequence");
        Draw<BigInteger> d = randbelow(BigInteger.valueOf(seq.size()));
        return new Draw<>(seq.get(d.value().intValueExact()), d.next());
    }

    /** {@code shuffle(x)} on a copy: from the end, {@code j = _randbelow(i + 1)}, swap. */
    public <T> Draw<List<T>> shuffle(List<T> seq) {
        List<T> x = new ArrayList<>(seq);
        Cursor c = new Cursor(this);
        for (int i = x.size() - 1; i > 0; i--) {
            int j = c.randbelow(BigInteger.valueOf(i + 1)).intValueExact();
            T t = x.get(i);
            x.set(i, x.get(j));
            x.set(j, t);
        }
        return new Draw<>(List.copyOf(x), c.state());
    }
}
