package brokkr.value;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.pcollections.OrderedPMap;

/**
 * Python {@code dict} with string keys, persistent and in insertion order: replacing a key keeps its
 * position, removing and re-adding moves it to the end (as CPython's dict does).
 */
public final class PyDict implements Value {
    private static final PyDict EMPTY = new PyDict(OrderedPMap.empty());

    private final OrderedPMap<String, Value> map;
    /**
     * Per-node memo slots, owned by {@code brokkr.world.WorldHash} (slot 0: insertion order, slot 1: sorted
     * keys) and written by nothing else: two owners would evict each other's memos. The node is
     * immutable, so a memo never goes stale.
     */
    private volatile Object memo0, memo1;

    private PyDict(OrderedPMap<String, Value> map) { this.map = map; }

    public static PyDict empty() { return EMPTY; }
    public static Builder builder() { return new Builder(); }

    /** {@code PyDict.of("a", v1, "b", v2)}; plain Java values are converted with {@link Value#of}. */
    public static PyDict of(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) throw new IllegalArgumentException("odd number of arguments");
        Builder b = builder();
        for (int i = 0; i < keysAndValues.length; i += 2) b.put((String) keysAndValues[i], Value.of(keysAndValues[i + 1]));
        return b.build();
    }

    public int size() { return map.size(); }
    public boolean isEmpty() { return map.isEmpty(); }
    /**
     * A hashed lookup: {@code OrderedPMap} inherits {@code AbstractMap.containsKey}, which walks every
     * entry (so the tau2 tools' {@code order_id not in self.db.orders} scanned every order). Values
     * are never Java null ({@link #with} and the builder refuse it), so a present key has a value.
     */
    public boolean containsKey(String k) { return map.get(k) != null; }
    /** The value, or Java {@code null} when absent (not {@link PyNone}). */
    public Value get(String k) { return map.get(k); }
    public Value getOrDefault(String k, Value dflt) { Value v = map.get(k); return v == null ? dflt : v; }
    public PyDict with(String k, Value v) { return new PyDict(map.plus(k, Objects.requireNonNull(v, "a dict value (None is PyNone)"))); }
    public PyDict without(String k) { return containsKey(k) ? new PyDict(map.minus(k)) : this; }
    /** Update the value under {@code k} (which must exist) with {@code f}. */
    public PyDict update(String k, UnaryOperator<Value> f) {
        Value old = map.get(k);
        if (old == null) throw new IllegalArgumentException("no key " + k);
        return with(k, f.apply(old));
    }
    public Set<String> keys() { return map.keySet(); }
    public Set<Map.Entry<String, Value>> entries() { return map.entrySet(); }
    public Map<String, Value> asMap() { return map; }
    @Override public String typeName() { return "dict"; }

    public Object memo(int slot) { return slot == 0 ? memo0 : memo1; }
    public void memo(int slot, Object value) { if (slot == 0) memo0 = value; else memo1 = value; }

    /** Dict equality is order-insensitive in Python. */
    @Override public boolean equals(Object o) {
        return o == this || (o instanceof PyDict d && map.equals(d.map));
    }
    @Override public int hashCode() { return map.hashCode(); }
    @Override public String toString() { return map.toString(); }

    /**
     * Collects entries straight into the persistent map: {@code OrderedPMap.from} would insert them one
     * by one anyway, so a mutable map first is only extra work (loading the tau2 dbs takes ~10% less CPU without it).
     */
    public static final class Builder {
        private OrderedPMap<String, Value> entries = OrderedPMap.empty();
        public Builder put(String k, Value v) { entries = entries.plus(k, Objects.requireNonNull(v, "a dict value (None is PyNone)")); return this; }
        public Builder put(String k, Object v) { return put(k, Value.of(v)); }
        public PyDict build() { return entries.isEmpty() ? EMPTY : new PyDict(entries); }
    }
}
