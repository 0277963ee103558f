package brokkr.domains.conformance;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte scans of a corpus's lines, eight bytes at a time: the first non-ASCII byte, the next newline, and whether
 * bytes are well-formed UTF-8 exactly as the JDK's strict decoder ({@code CodingErrorAction.REPORT}) accepts them,
 * without decoding them (the JSON parser reads the bytes).
 */
final class Utf8 {
    private Utf8() {}

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LOW_BITS = 0x0101010101010101L;

    /** The index of the first byte in {@code [from, to)} with its high bit set, or {@code to}. */
    static int asciiPrefix(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            if (((long) LONGS.get(b, i) & HIGH_BITS) != 0) break;
        }
        for (; i < to; i++) if (b[i] < 0) return i;
        return to;
    }

    /** The index of the first {@code value} in {@code [from, to)}, or -1. */
    static int indexOf(byte[] b, byte value, int from, int to) {
        long pattern = LOW_BITS * (value & 0xff);
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ pattern;
            // a zero byte of x is a match; the lowest flagged byte is exact (only bytes above a match can be false)
            long found = (x - LOW_BITS) & ~x & HIGH_BITS;
            if (found != 0) return i + (Long.numberOfTrailingZeros(found) >>> 3);
        }
        for (; i < to; i++) if (b[i] == value) return i;
        return -1;
    }

    /**
     * Whether {@code b} is well-formed UTF-8 (Unicode's table 3-7: no overlong form, no surrogate, nothing above
     * U+10FFFF, no stray or missing continuation byte), what the JDK's decoder accepts when it reports errors.
     */
    static boolean isWellFormed(byte[] b) {
        int n = b.length;
        int i = asciiPrefix(b, 0, n);
        while (i < n) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i = asciiPrefix(b, i + 1, n);
                continue;
            }
            int len, lo = 0x80, hi = 0xbf; // the range of the second byte
            if (c >= 0xc2 && c <= 0xdf) len = 2;
            else if (c >= 0xe0 && c <= 0xef) {
                len = 3;
                if (c == 0xe0) lo = 0xa0;
                else if (c == 0xed) hi = 0x9f;
            } else if (c >= 0xf0 && c <= 0xf4) {
                len = 4;
                if (c == 0xf0) lo = 0x90;
                else if (c == 0xf4) hi = 0x8f;
            } else return false;
            if (i + len > n) return false;
            int second = b[i + 1] & 0xff;
            if (second < lo || second > hi) return false;
            for (int k = 2; k < len; k++) if ((b[i + k] & 0xc0) != 0x80) return false;
            i += len;
        }
        return true;
    }
}
