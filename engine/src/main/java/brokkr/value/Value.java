package brokkr.value;

/**
 * A JSON-like, immutable Python value: the shape of every benchmark world and tool argument.
 *
 * <p>Python distinguishes {@code int} from {@code float} and {@code bool} from both, and exposes
 * dict insertion order; the variants keep all three distinctions. Containers are persistent
 * (structural sharing), so forking a world is O(1).
 */
public sealed interface Value permits PyStr, PyInt, PyFloat, PyBool, PyNone, PyList, PyDict {

    /** Python's type name, as in {@code type(x).__name__}. */
    String typeName();

    static Value of(Object o) {
        return switch (o) {
            case null -> PyNone.NONE;
            case Value v -> v;
            case String s -> new PyStr(s);
            case Boolean b -> PyBool.of(b);
            case Integer i -> PyInt.of(i);
            case Long l -> PyInt.of(l);
            case java.math.BigInteger b -> new PyInt(b);
            case Double d -> new PyFloat(d);
            case Float f -> new PyFloat(f);
            case java.util.Map<?, ?> m -> {
                PyDict.Builder b = PyDict.builder();
                m.forEach((k, v) -> b.put(String.valueOf(k), of(v)));
                yield b.build();
            }
            case java.util.Collection<?> c ->
                PyList.of(c.stream().map(Value::of).toList());
            default -> throw new IllegalArgumentException("not a JSON-like value: " + o.getClass());
        };
    }

    static Value str(String s) {
        return new PyStr(s);
    }

    default boolean isNone() {
        return this == PyNone.NONE;
    }

    default PyDict asDict() {
        if (this instanceof PyDict d) return d;
        throw new ClassCastException("expected dict, got " + typeName());
    }

    default PyList asList() {
        if (this instanceof PyList l) return l;
        throw new ClassCastException("expected list, got " + typeName());
    }

    default String asStr() {
        if (this instanceof PyStr s) return s.value();
        throw new ClassCastException("expected str, got " + typeName());
    }
}
