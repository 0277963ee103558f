package brokkr.value;

import java.util.Objects;

/** Python {@code str}. Java strings are UTF-16; lone surrogates are kept as they are. */
public record PyStr(String value) implements Value {
    public PyStr {
        Objects.requireNonNull(value);
    }

    @Override
    public String typeName() {
        return "str";
    }

    @Override
    public String toString() {
        return value;
    }
}
