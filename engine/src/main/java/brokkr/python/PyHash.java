package brokkr.python;

import brokkr.value.PyNone;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * CPython 3.11's {@code hash()} with {@code PYTHONHASHSEED=0} (hash randomisation off: the SipHash key is all
 * zeros) for the hashable built-in values whose hash does not depend on an address: str (SipHash-1-3 over
 * the string's internal 1-, 2- or 4-byte representation, Python/pyhash.c), int and bool (Objects/longobject.c,
 * modulo 2^61 - 1), float (Python/pyhash.c _Py_HashDouble, the same numeric hash) and tuples of these
 * (Objects/tupleobject.c, xxHash-based). It decides the iteration order of sets ({@link PySet}).
 */
public final class PyHash {
    private PyHash() {}

    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(61).subtract(BigInteger.ONE);
    private static final int BITS = 61;

    /** The hash, or empty when it depends on an object's address (None, NaN, custom objects) or the value is unhashable. */
    public static OptionalLong hash(Object o) {
        return switch (o) {
            case String s -> OptionalLong.of(fix(str(s)));
            case Boolean b -> OptionalLong.of(b ? 1 : 0);
            case BigInteger i -> OptionalLong.of(integer(i));
            case Double d -> d.isNaN() ? OptionalLong.empty() : OptionalLong.of(dbl(d));
            case PyTuple t -> tuple(t);
            case PyNone n -> OptionalLong.empty();
            default -> OptionalLong.empty();
        };
    }

    private static long fix(long h) {
        return h == -1 ? -2 : h;
    }

    static long integer(BigInteger i) {
        long h = i.abs().mod(MODULUS).longValue();
        if (i.signum() < 0) h = -h;
        return fix(h);
    }

    /** The numeric hash of a finite double m * 2^e: sign * (|m| * 2^e mod P), 2^-k as 2^(61 - k mod 61). */
    static long dbl(double d) {
        if (Double.isInfinite(d)) return d > 0 ? 314159 : -314159;
        if (d == 0.0) return 0;
        long bits = Double.doubleToRawLongBits(d);
        int exp = (int) ((bits >> 52) & 0x7ff);
        long man = bits & ((1L << 52) - 1);
        if (exp == 0) exp = 1;
        else man |= 1L << 52;
        int e = exp - 1075;
        BigInteger m = BigInteger.valueOf(man).mod(MODULUS);
        int shift = Math.floorMod(e, BITS);
        long h = m.multiply(BigInteger.TWO.modPow(BigInteger.valueOf(shift), MODULUS))
                .mod(MODULUS)
                .longValue();
        if (d < 0) h = -h;
        return fix(h);
    }

    private static OptionalLong tuple(PyTuple t) {
        final long p1 = 0x9E3779B185EBCA87L, p2 = 0xC2B2AE3D27D4EB4FL, p5 = 0x27D4EB2F165667C5L;
        long acc = p5;
        for (Object item : t.items()) {
            OptionalLong lane = hash(item);
            if (lane.isEmpty()) return OptionalLong.empty();
            acc += lane.getAsLong() * p2;
            acc = Long.rotateLeft(acc, 31);
            acc *= p1;
        }
        acc += t.size() ^ (p5 ^ 3527539L);
        if (acc == -1) return OptionalLong.of(1546275796);
        return OptionalLong.of(acc);
    }

    /** SipHash-1-3 with a zero key over the PEP 393 representation of {@code s}. */
    static long str(String s) {
        if (s.isEmpty()) return 0;
        int max = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            max = Math.max(max, cp);
            i += Character.charCount(cp);
        }
        byte[] data;
        if (max < 256) {
            data = s.getBytes(StandardCharsets.ISO_8859_1);
        } else if (max < 65536) {
            data = new byte[s.length() * 2];
            for (int i = 0; i < s.length(); i++) {
                data[2 * i] = (byte) s.charAt(i);
                data[2 * i + 1] = (byte) (s.charAt(i) >> 8);
            }
        } else {
            int[] cps = s.codePoints().toArray();
            data = new byte[cps.length * 4];
            for (int i = 0; i < cps.length; i++) {
                for (int k = 0; k < 4; k++) data[4 * i + k] = (byte) (cps[i] >> (8 * k));
            }
        }
        return siphash13(data);
    }

    private static long siphash13(byte[] data) {
        long v0 = 0x736f6d6570736575L, v1 = 0x646f72616e646f6dL, v2 = 0x6c7967656e657261L, v3 = 0x7465646279746573L;
        int n = data.length, blocks = n / 8;
        for (int b = 0; b < blocks; b++) {
            long m = 0;
            for (int k = 7; k >= 0; k--) m = (m << 8) | (data[8 * b + k] & 0xff);
            v3 ^= m;
            // one compression round
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
            v0 ^= m;
        }
        long last = ((long) n) << 56;
        for (int k = n - 1; k >= blocks * 8; k--) last |= ((long) (data[k] & 0xff)) << (8 * (k - blocks * 8));
        v3 ^= last;
        v0 += v1;
        v1 = Long.rotateLeft(v1, 13);
        v1 ^= v0;
        v0 = Long.rotateLeft(v0, 32);
        v2 += v3;
        v3 = Long.rotateLeft(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = Long.rotateLeft(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = Long.rotateLeft(v1, 17);
        v1 ^= v2;
        v2 = Long.rotateLeft(v2, 32);
        v0 ^= last;
        v2 ^= 0xff;
        for (int r = 0; r < 3; r++) {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }
}
