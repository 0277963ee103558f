package brokkr.python;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A Python {@code set} or {@code frozenset} in the dynamic object model of {@link PyObjects}: its members in
 * insertion order; {@link #iterationOrder} is the order CPython iterates them (what {@code str(set)} and
 * {@code for x in s} show).
 */
public record PySet(Set<Object> members, boolean frozen) {
    public PySet {
        members = Collections.unmodifiableSet(new LinkedHashSet<>(members));
    }

    public static PySet of(Set<Object> members) {
        return new PySet(members, false);
    }

    /** The members in the order CPython iterates them ({@link PySetOrder}). */
    public List<Object> iterationOrder() {
        return PySetOrder.order(new ArrayList<>(members));
    }

    public int size() {
        return members.size();
    }

    public boolean contains(Object o) {
        return members.contains(o);
    }
}
