package brokkr.value;

import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.pcollections.PVector;
import org.pcollections.TreePVector;

/** Python {@code list}, persistent: every update returns a new list sharing structure with the old one. */
public final class PyList implements Value, Iterable<Value> {
    private static final PyList EMPTY = new PyList(TreePVector.empty());

    private final PVector<Value> items;
    /**
     * Per-node memo slots, owned by {@code brokkr.world.WorldHash} (slot 0: insertion order, slot 1: sorted
     * keys) and written by nothing else: two owners would evict each other's memos. The node is
     * immutable, so a memo never goes stale.
     */
    private volatile Object memo0, memo1;

    private PyList(PVector<Value> items) {
        this.items = items;
    }

    public static PyList empty() {
        return EMPTY;
    }

    public static PyList of(Collection<? extends Value> values) {
        return values.isEmpty() ? EMPTY : new PyList(TreePVector.from(values));
    }

    public static PyList of(Value... values) {
        return of(List.of(values));
    }

    public int size() {
        return items.size();
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    public Value get(int i) {
        return items.get(i);
    }

    public PyList with(int i, Value v) {
        return new PyList(items.with(i, v));
    }

    public PyList plus(Value v) {
        return new PyList(items.plus(v));
    }

    public PyList minus(int i) {
        return new PyList(items.minus(i));
    }

    public List<Value> items() {
        return items;
    }

    public Stream<Value> stream() {
        return items.stream();
    }

    @Override
    public Iterator<Value> iterator() {
        return items.iterator();
    }

    @Override
    public String typeName() {
        return "list";
    }

    public Object memo(int slot) {
        return slot == 0 ? memo0 : memo1;
    }

    public void memo(int slot, Object value) {
        if (slot == 0) memo0 = value;
        else memo1 = value;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || (o instanceof PyList l && items.equals(l.items));
    }

    @Override
    public int hashCode() {
        return items.hashCode();
    }

    @Override
    public String toString() {
        return items.toString();
    }
}
