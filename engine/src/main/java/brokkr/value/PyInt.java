package brokkr.value;

import java.math.BigInteger;
import java.util.Objects;

/** Python {@code int}: arbitrary precision. */
public record PyInt(BigInteger value) implements Value {
    private static final PyInt[] SMALL = new PyInt[1024 + 128];

    static {
        for (int i = 0; i < SMALL.length; i++) SMALL[i] = new PyInt(BigInteger.valueOf(i - 128));
    }

    public PyInt {
        Objects.requireNonNull(value);
    }

    public static PyInt of(long v) {
        if (v >= -128 && v < 1024) return SMALL[(int) v + 128];
        return new PyInt(BigInteger.valueOf(v));
    }

    public boolean fitsLong() {
        return value.bitLength() < 64;
    }

    public long longValue() {
        return value.longValueExact();
    }

    @Override
    public String typeName() {
        return "int";
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
