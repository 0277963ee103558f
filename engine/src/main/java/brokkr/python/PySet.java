package brokkr.python;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A Python {@code set} or {@code frozenset} in the dynamic object model of {@link PyObjects}, its members
 * in insertion order (CPython iterates in hash-table order; where that order becomes visible, in
 * {@code str(set)}, this differs unless the caller inserts in CPython's order).
 */
public record PySet(Set<Object> members, boolean frozen) {
    public PySet {
        members = Collections.unmodifiableSet(new LinkedHashSet<>(members));
    }
    public static PySet of(Set<Object> members) { return new PySet(members, false); }
    public int size() { return members.size(); }
    public boolean contains(Object o) { return members.contains(o); }
}
