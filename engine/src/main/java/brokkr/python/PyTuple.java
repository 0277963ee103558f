package brokkr.python;

import java.util.List;

/**
 * A Python {@code tuple} in the dynamic object model of {@link PyObjects} (a Java {@link List} is a
 * Python {@code list}; a tuple is deliberately not a {@code List}, so the two never mix up).
 */
public record PyTuple(List<Object> items) {
    public PyTuple {
        items = List.copyOf(items);
    }

    public static PyTuple of(Object... items) {
        return new PyTuple(List.of(items));
    }

    public int size() {
        return items.size();
    }

    public Object get(int i) {
        return items.get(i);
    }
}
