package brokkr.python;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A Python {@code set} or {@code frozenset} in the dynamic object model of {@link PyObjects}: its members in
 * insertion order, and the shape of CPython's table for them ({@link PySetOrder}), which depends on how the set
 * was built; {@link #iterationOrder} is the order CPython iterates them (what {@code str(set)} and
 * {@code for x in s} show). Equality ignores the shape, as Python's does.
 */
public record PySet(Set<Object> members, boolean frozen, PySetOrder.Shape shape) {
    public PySet {
        members = Collections.unmodifiableSet(new LinkedHashSet<>(members));
    }

    /** A set built by adding {@code members} one by one, in their order. */
    public PySet(Set<Object> members, boolean frozen) {
        this(members, frozen, PySetOrder.added(new ArrayList<>(members)));
    }

    public static PySet of(Set<Object> members) {
        return new PySet(members, false);
    }

    /** {@code set(other)}: CPython merges another set's table rather than adding its members one by one. */
    public static PySet copyOf(PySet other) {
        return new PySet(other.members, false, PySetOrder.mergedIntoEmpty(other.shape));
    }

    /** The members in the order CPython iterates them. */
    public List<Object> iterationOrder() {
        return shape.order();
    }

    public int size() {
        return members.size();
    }

    public boolean contains(Object o) {
        return members.contains(o);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PySet s && s.frozen == frozen && s.members.equals(members);
    }

    @Override
    public int hashCode() {
        return members.hashCode() * 31 + Boolean.hashCode(frozen);
    }
}
