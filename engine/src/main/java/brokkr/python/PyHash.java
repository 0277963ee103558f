package brokkr.python;

import brokkr.value.PyNone;
import java.math.BigInteger;
import java.util.List;

/**
 * CPython 3.11's {@code hash()} for the hashable built-ins of {@link PyObjects}' model, as a process started
 * with {@code PYTHONHASHSEED=0} computes it (the setting the BFCL multi-turn corpora were recorded with): str by
 * SipHash-1-3 with the all-zero key over the string's internal representation (Python/pyhash.c; 1, 2 or 4
 * bytes per code point, little-endian), int and bool modulo the Mersenne prime 2**61 - 1 keeping the sign,
 * float by {@code _Py_HashDouble}, tuple by the xxHash-based {@code tuplehash}; -1 becomes -2.
 * {@code hash(None)} is address-based in 3.11 and has no reproducible value ({@link #hash} refuses it).
 */
public final class PyHash {
    private PyHash() {}

    private static final long MODULUS = (1L << 61) - 1;
    private static final long INF = 314159;

    public static long hash(Object o) {
        return switch (o) {
            case String s -> str(s);
            case Boolean b -> b ? 1 : 0;
            case BigInteger i -> integer(i);
            case Double d -> dbl(d);
            case PyTuple t -> tuple(t.items());
            case PyNone n -> throw new IllegalArgumentException("hash(None) is address-based in CPython 3.11");
            default -> throw PyException.typeError("unhashable type: '" + PyObjects.typeName(o) + "'");
        };
    }

    static long integer(BigInteger i) {
        long h = i.abs().mod(BigInteger.valueOf(MODULUS)).longValue();
        if (i.signum() < 0) h = -h;
        return h == -1 ? -2 : h;
    }

    /** Python/pyhash.c _Py_HashDouble; NaN hashes by address in 3.11 and is refused. */
    static long dbl(double v) {
        if (Double.isNaN(v)) throw new IllegalArgumentException("hash(nan) is address-based in CPython 3.11");
        if (Double.isInfinite(v)) return v > 0 ? INF : -INF;
        if (v == 0) return 0;
        // frexp: v = m * 2**e with 0.5 <= |m| < 1
        int exp = Math.getExponent(v);
        int e = exp == Double.MIN_EXPONENT - 1 ? Math.getExponent(v * 0x1p54) + 1 - 54 : exp + 1;
        double m = Math.scalb(v, -e);
        int sign = 1;
        if (m < 0) { sign = -1; m = -m; }
        long x = 0;
        while (m != 0) {
            x = ((x << 28) & MODULUS) | x >>> (61 - 28);
            m *= 268435456.0; // 2**28
            e -= 28;
            long y = (long) m;
            m -= y;
            x += y;
            if (Long.compareUnsigned(x, MODULUS) >= 0) x -= MODULUS;
        }
        e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
        x = ((x << e) & MODULUS) | x >>> (61 - e);
        x = x * sign;
        return x == -1 ? -2 : x;
    }

    private static final long XXPRIME_1 = 0x9E3779B185EBCA87L;
    private static final long XXPRIME_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long XXPRIME_5 = 0x27D4EB2F165667C5L;

    /** Objects/tupleobject.c tuplehash (64-bit). */
    static long tuple(List<Object> items) {
        long acc = XXPRIME_5;
        for (Object item : items) {
            long lane = hash(item);
            acc += lane * XXPRIME_2;
            acc = Long.rotateLeft(acc, 31);
            acc *= XXPRIME_1;
        }
        acc += items.size() ^ (XXPRIME_5 ^ 3527539L);
        return acc == -1 ? 1546275796 : acc;
    }

    /** _Py_HashBytes over PyUnicode_DATA: siphash13(k0 = k1 = 0); the empty string hashes to 0. */
    static long str(String s) {
        if (s.isEmpty()) return 0;
        int max = 0;
        int n = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            max = Math.max(max, cp);
            n++;
            i += Character.charCount(cp);
        }
        int kind = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
        byte[] data = new byte[n * kind];
        int k = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            for (int b = 0; b < kind; b++) data[k++] = (byte) (cp >>> (8 * b));
            i += Character.charCount(cp);
        }
        long h = siphash13(0, 0, data);
        return h == -1 ? -2 : h;
    }

    static long siphash13(long k0, long k1, byte[] in) {
        long b = ((long) in.length) << 56;
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        int off = 0;
        long[] v = {v0, v1, v2, v3};
        while (in.length - off >= 8) {
            long mi = 0;
            for (int i = 7; i >= 0; i--) mi = (mi << 8) | (in[off + i] & 0xff);
            off += 8;
            v[3] ^= mi;
            round(v);
            v[0] ^= mi;
        }
        long t = 0;
        for (int i = in.length - off - 1; i >= 0; i--) t = (t << 8) | (in[off + i] & 0xff);
        b |= t;
        v[3] ^= b;
        round(v);
        v[0] ^= b;
        v[2] ^= 0xff;
        round(v);
        round(v);
        round(v);
        return (v[0] ^ v[1]) ^ (v[2] ^ v[3]);
    }

    /** SINGLE_ROUND: HALF_ROUND(v0,v1,v2,v3,13,16); HALF_ROUND(v2,v1,v0,v3,17,21). */
    private static void round(long[] v) {
        halfRound(v, 0, 1, 2, 3, 13, 16);
        halfRound(v, 2, 1, 0, 3, 17, 21);
    }

    private static void halfRound(long[] v, int a, int b, int c, int d, int s, int t) {
        v[a] += v[b];
        v[c] += v[d];
        v[b] = Long.rotateLeft(v[b], s) ^ v[a];
        v[d] = Long.rotateLeft(v[d], t) ^ v[c];
        v[a] = Long.rotateLeft(v[a], 32);
    }
}
