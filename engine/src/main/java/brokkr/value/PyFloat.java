package brokkr.value;

/** Python {@code float}: an IEEE double. Equality is by bits, so -0.0 and NaN are values too. */
public record PyFloat(double value) implements Value {
    @Override
    public String typeName() {
        return "float";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PyFloat f && Double.doubleToRawLongBits(f.value) == Double.doubleToRawLongBits(value);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(value);
    }
}
