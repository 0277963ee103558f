package brokkr.value;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.pcollections.OrderedPMap;

/**
 * Python {@code dict} with string keys, persistent and in insertion order: replacing a key keeps its
 * position, removing and re-adding moves it to the end (as CPython's dict does).
 *
 * <p>Two forms behind one API. A dict of at most {@value #SMALL_MAX} keys (a tau2 record: an address,
 * an item, a payment method) is two arrays in insertion order, copied on write: a lookup is a scan of
 * a few interned-or-short keys, where {@code OrderedPMap}'s is a hash-trie walk plus a bucket (the
 * tau2 tools look up record fields far more often than they change them; the retail replay spent a
 * sixth of its time beyond hashing in those walks). A larger dict (a table of orders or users) is an
 * {@code OrderedPMap}, whose updates share structure. A small dict that grows past the bound becomes
 * large and stays large.
 */
public final class PyDict implements Value {
    /** The largest dict kept as arrays: beyond it a copy per update costs more than a trie walk saves. */
    static final int SMALL_MAX = 12;

    private static final String[] NO_KEYS = new String[0];
    private static final Value[] NO_VALUES = new Value[0];
    private static final PyDict EMPTY = new PyDict(NO_KEYS, NO_VALUES);

    /** The small form (null when large): keys and values in insertion order. */
    private final String[] keys;

    private final Value[] vals;
    /**
     * Small form: the sorted order of {@link #keys}, shared by every version with the same key array (a
     * replaced value keeps it), so that hashing and {@code json.dumps(sort_keys=True)} sort a record's
     * keys once, not at every change.
     */
    private final KeyOrder keyOrder;
    /** The large form (null when small). */
    private final OrderedPMap<String, Value> map;
    /**
     * Large form only: the dict this one was made from by {@link #with} of a key it already had, and that
     * key (a chain of at most {@value #ORIGIN_DEPTH} such steps). A hint for incremental hashing
     * ({@code brokkr.world}): a table of a thousand orders changed in one entry is re-memoized from the
     * keys that changed instead of a walk of every entry. Dropped by the hasher once used, so that a
     * hashed world retains no earlier version of its tables; like the memos, never part of the value.
     */
    private volatile PyDict origin;

    private final String changedKey;
    private final int originDepth;
    private static final int ORIGIN_DEPTH = 8;
    /**
     * Per-node memo slots, owned by {@code brokkr.world.WorldHash} (slot 0: insertion order, slot 1: sorted
     * keys) and written by nothing else: two owners would evict each other's memos. The node is
     * immutable, so a memo never goes stale.
     */
    private volatile Object memo0, memo1;

    private PyDict(String[] keys, Value[] vals) {
        this(keys, vals, new KeyOrder(), null, null, null, 0);
    }

    private PyDict(OrderedPMap<String, Value> map) {
        this(null, null, null, map, null, null, 0);
    }

    private PyDict(
            String[] keys,
            Value[] vals,
            KeyOrder keyOrder,
            OrderedPMap<String, Value> map,
            PyDict origin,
            String changedKey,
            int originDepth) {
        this.keys = keys;
        this.vals = vals;
        this.keyOrder = keyOrder;
        this.map = map;
        this.origin = origin;
        this.changedKey = changedKey;
        this.originDepth = originDepth;
    }

    public static PyDict empty() {
        return EMPTY;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code PyDict.of("a", v1, "b", v2)}; plain Java values are converted with {@link Value#of}. */
    public static PyDict of(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) throw new IllegalArgumentException("odd number of arguments");
        Builder b = builder();
        for (int i = 0; i < keysAndValues.length; i += 2)
            b.put((String) keysAndValues[i], Value.of(keysAndValues[i + 1]));
        return b.build();
    }

    public int size() {
        return keys != null ? keys.length : map.size();
    }

    public boolean isEmpty() {
        return size() == 0;
    }
    /**
     * A hashed (or, small, scanned) lookup: {@code OrderedPMap} inherits {@code AbstractMap.containsKey},
     * which walks every entry (so the tau2 tools' {@code order_id not in self.db.orders} scanned every
     * order). Values are never Java null ({@link #with} and the builder refuse it), so a present key has a value.
     */
    public boolean containsKey(String k) {
        return get(k) != null;
    }

    /** The value, or Java {@code null} when absent (not {@link PyNone}). */
    public Value get(String k) {
        if (keys == null) return map.get(k);
        int i = indexOf(keys, keys.length, k);
        return i < 0 ? null : vals[i];
    }

    public Value getOrDefault(String k, Value dflt) {
        Value v = get(k);
        return v == null ? dflt : v;
    }

    public PyDict with(String k, Value v) {
        Objects.requireNonNull(v, "a dict value (None is PyNone)");
        if (keys == null) {
            if (map.get(k) == null) return new PyDict(map.plus(k, v)); // a new key: another key order, no origin
            boolean link = originDepth < ORIGIN_DEPTH;
            return new PyDict(
                    null, null, null, map.plus(k, v), link ? this : null, link ? k : null, link ? originDepth + 1 : 0);
        }
        int i = indexOf(keys, keys.length, k);
        if (i >= 0) {
            Value[] vs = vals.clone();
            vs[i] = v;
            return new PyDict(
                    keys, vs, keyOrder, null, null, null,
                    0); // same keys in the same order: shared, with their sorted order
        }
        if (keys.length < SMALL_MAX) {
            String[] ks = Arrays.copyOf(keys, keys.length + 1);
            Value[] vs = Arrays.copyOf(vals, vals.length + 1);
            ks[keys.length] = k;
            vs[vals.length] = v;
            return new PyDict(ks, vs);
        }
        return new PyDict(large(keys, vals, keys.length).plus(k, v));
    }

    public PyDict without(String k) {
        if (keys == null) return map.get(k) != null ? new PyDict(map.minus(k)) : this;
        int i = indexOf(keys, keys.length, k);
        if (i < 0) return this;
        int n = keys.length;
        if (n == 1) return EMPTY;
        String[] ks = new String[n - 1];
        Value[] vs = new Value[n - 1];
        System.arraycopy(keys, 0, ks, 0, i);
        System.arraycopy(keys, i + 1, ks, i, n - 1 - i);
        System.arraycopy(vals, 0, vs, 0, i);
        System.arraycopy(vals, i + 1, vs, i, n - 1 - i);
        return new PyDict(ks, vs);
    }

    /** Update the value under {@code k} (which must exist) with {@code f}. */
    public PyDict update(String k, UnaryOperator<Value> f) {
        Value old = get(k);
        if (old == null) throw new IllegalArgumentException("no key " + k);
        return with(k, f.apply(old));
    }

    /**
     * The entries sorted by key with {@code order} (the caller's one total order of keys, e.g. Python's
     * code point order; a small dict caches the permutation for the last order asked, per key set).
     */
    @SuppressWarnings("unchecked")
    public Map.Entry<String, Value>[] sortedEntries(Comparator<String> order) {
        int n = size();
        Map.Entry<String, Value>[] out = new Map.Entry[n];
        if (keys == null) {
            entries().toArray(out);
            Arrays.sort(out, (a, b) -> order.compare(a.getKey(), b.getKey()));
            return out;
        }
        int[] perm = keyOrder.permutation(keys, order);
        for (int i = 0; i < n; i++) out[i] = new AbstractMap.SimpleImmutableEntry<>(keys[perm[i]], vals[perm[i]]);
        return out;
    }

    public Set<String> keys() {
        return asMap().keySet();
    }

    public Set<Map.Entry<String, Value>> entries() {
        return asMap().entrySet();
    }
    /** A read-only view in insertion order. */
    public Map<String, Value> asMap() {
        return keys != null ? new SmallView(keys, vals) : map;
    }

    @Override
    public String typeName() {
        return "dict";
    }

    /** Large form: the dict this one was made from by replacing the value of {@link #changedKey()}, or null. */
    public PyDict origin() {
        return origin;
    }
    /** The key whose value {@link #origin()} had and this dict replaced (null without an origin). */
    public String changedKey() {
        return origin == null ? null : changedKey;
    }
    /** Forgets the origin (the hasher, once it has used it or found it of no use). */
    public void dropOrigin() {
        origin = null;
    }

    public Object memo(int slot) {
        return slot == 0 ? memo0 : memo1;
    }

    public void memo(int slot, Object value) {
        if (slot == 0) memo0 = value;
        else memo1 = value;
    }

    /** Dict equality is order-insensitive in Python (and across this class's two forms). */
    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof PyDict d) || d.size() != size()) return false;
        if (keys != null) {
            for (int i = 0; i < keys.length; i++) if (!vals[i].equals(d.get(keys[i]))) return false;
            return true;
        }
        return map.equals(d.asMap());
    }

    @Override
    public int hashCode() {
        return asMap().hashCode();
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    private static int indexOf(String[] keys, int n, String k) {
        for (int i = 0; i < n; i++) {
            String x = keys[i];
            if (x == k) return i;
        }
        for (int i = 0; i < n; i++) if (keys[i].equals(k)) return i;
        return -1;
    }

    private static OrderedPMap<String, Value> large(String[] keys, Value[] vals, int n) {
        OrderedPMap<String, Value> m = OrderedPMap.empty();
        for (int i = 0; i < n; i++) m = m.plus(keys[i], vals[i]);
        return m;
    }

    /** A key array's sorted order under the last comparator asked (benign race: any thread computes the same). */
    private static final class KeyOrder {
        private volatile Object[] cached; // {Comparator, int[]}

        int[] permutation(String[] keys, Comparator<String> order) {
            Object[] c = cached;
            if (c != null && c[0] == order) return (int[]) c[1];
            Integer[] idx = new Integer[keys.length];
            for (int i = 0; i < idx.length; i++) idx[i] = i;
            Arrays.sort(idx, (x, y) -> order.compare(keys[x], keys[y]));
            int[] perm = new int[idx.length];
            for (int i = 0; i < perm.length; i++) perm[i] = idx[i];
            cached = new Object[] {order, perm};
            return perm;
        }
    }

    /** The small form as a read-only {@link Map}, in insertion order. */
    private static final class SmallView extends AbstractMap<String, Value> {
        private final String[] keys;
        private final Value[] vals;

        SmallView(String[] keys, Value[] vals) {
            this.keys = keys;
            this.vals = vals;
        }

        @Override
        public int size() {
            return keys.length;
        }

        @Override
        public Value get(Object k) {
            if (!(k instanceof String s)) return null;
            int i = indexOf(keys, keys.length, s);
            return i < 0 ? null : vals[i];
        }

        @Override
        public boolean containsKey(Object k) {
            return get(k) != null;
        }

        @Override
        public Set<Entry<String, Value>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public int size() {
                    return keys.length;
                }

                @Override
                public Iterator<Entry<String, Value>> iterator() {
                    return new Iterator<>() {
                        int i;

                        @Override
                        public boolean hasNext() {
                            return i < keys.length;
                        }

                        @Override
                        public Entry<String, Value> next() {
                            if (i >= keys.length) throw new NoSuchElementException();
                            int j = i++;
                            return new SimpleImmutableEntry<>(keys[j], vals[j]);
                        }
                    };
                }
            };
        }
    }

    /**
     * Collects entries in insertion order (a repeated key keeps its first position, the last value):
     * arrays while the dict is small, then straight into the persistent map ({@code OrderedPMap.from}
     * would insert one by one anyway, so a mutable map first is only extra work).
     */
    public static final class Builder {
        private String[] keys = new String[4];
        private Value[] vals = new Value[4];
        private int n;
        private OrderedPMap<String, Value> entries;

        public Builder put(String k, Value v) {
            Objects.requireNonNull(v, "a dict value (None is PyNone)");
            if (entries != null) {
                entries = entries.plus(k, v);
                return this;
            }
            int i = indexOf(keys, n, k);
            if (i >= 0) {
                vals[i] = v;
                return this;
            }
            if (n == SMALL_MAX) {
                entries = large(keys, vals, n).plus(k, v);
                keys = null;
                vals = null;
                return this;
            }
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, Math.min(SMALL_MAX, n * 2));
                vals = Arrays.copyOf(vals, keys.length);
            }
            keys[n] = k;
            vals[n++] = v;
            return this;
        }

        public Builder put(String k, Object v) {
            return put(k, Value.of(v));
        }

        public PyDict build() {
            if (entries != null) return new PyDict(entries);
            if (n == 0) return EMPTY;
            return new PyDict(Arrays.copyOf(keys, n), Arrays.copyOf(vals, n));
        }
    }
}
