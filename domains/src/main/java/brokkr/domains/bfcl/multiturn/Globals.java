package brokkr.domains.bfcl.multiturn;

import brokkr.python.ArrayVector;
import brokkr.python.PyTuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.pcollections.HashTreePMap;
import org.pcollections.OrderedPMap;
import org.pcollections.PMap;

/**
 * The process-global mutable state of upstream's Python process that backends share across instances
 * (conformance README, "Process-global state in upstream"): e.g. {@code long_context.CREDIT_CARD_EXTENSION}
 * cards that every TravelAPI instance holds by reference, or the default lists of
 * {@code TwitterAPI.post_tweet}. A persistent map from a cell name (by convention
 * {@code "<ClassName>.<what>"}) to a Python object (see {@code brokkr.python.PyObjects}); the model's and
 * the ground truth's instances of one checker run see the same cells, as they share one process upstream.
 * A fresh {@link #EMPTY} is a pristine process.
 */
@SuppressWarnings("unchecked")
public record Globals(PMap<String, Object> cells) {
    public static final Globals EMPTY = new Globals(HashTreePMap.empty());

    /** The cell's value, or {@code initial.get()} if the cell was never written (import-time value). */
    public Object get(String cell, Supplier<Object> initial) {
        Object v = cells.get(cell);
        return v != null ? v : initial.get();
    }

    /**
     * The globals with {@code cell} set to {@code value}; this object itself when the cell already holds that very
     * object or an equal number, str or bool (e.g. MathAPI setting the precision it already has): the globals are
     * part of what identifies a call's outcome (the executor's memo of evaluated calls, the state hashes), so an
     * unchanged cell keeps them the same object.
     */
    public Globals with(String cell, Object value) {
        Object old = cells.get(cell);
        if (old == value
                || (old != null
                        && (value instanceof Number || value instanceof String || value instanceof Boolean)
                        && old.getClass() == value.getClass()
                        && old.equals(value))) return this;
        return new Globals(cells.plus(cell, value));
    }

    /** A new {@link SharedList} cell holding {@code value}, named {@code prefix#n} (n counts per process). */
    public record Allocated(SharedList ref, Globals globals) {}

    public Allocated allocate(String prefix, Object value) {
        Object n = cells.get("$next-cell");
        long next = n == null ? 0 : (Long) n;
        SharedList ref = new SharedList(prefix + "#" + next);
        return new Allocated(
                ref,
                new Globals(cells.plus("$next-cell", next + 1)
                        .plus(ref.cell(), value)
                        .plus(SHARING, true)));
    }

    /**
     * Marks that a value of this world may hold {@code ref}, a {@link SharedList} the backend did not
     * {@link #allocate} (a process-wide one such as a default argument's list): only then does {@link #resolve}
     * look inside values at all.
     */
    public Globals sharing(SharedList ref) {
        return cells.containsKey(SHARING) ? this : new Globals(cells.plus(SHARING, true));
    }

    /**
     * The cell that says a {@link SharedList} exists in this world ({@link #allocate}, {@link #sharing}). Without it
     * no value can hold one, and {@link #resolve} returns every value as it is without walking it: only TwitterAPI
     * makes shared lists, and resolving walked every result and every state compared.
     */
    private static final String SHARING = "$sharing";

    /** The current list of a {@link SharedList}'s cell (empty if never written). */
    public Object list(SharedList ref) {
        return get(ref.cell(), ArrayVector::empty);
    }

    /** {@code v} with every {@link SharedList} inside it replaced by its current list (the same object if there is none). */
    public Object resolve(Object v) {
        return cells.containsKey(SHARING) ? resolveShared(v) : v;
    }

    private Object resolveShared(Object v) {
        return switch (v) {
            case SharedList ref -> resolveShared(list(ref));
            case List<?> l -> {
                List<Object> out = null;
                int i = 0;
                for (Object x : l) { // the iterator: a persistent vector's get is a tree descent
                    Object r = resolveShared(x);
                    if (r != x && out == null) out = new ArrayList<>(l.subList(0, i));
                    if (out != null) out.add(r);
                    i++;
                }
                yield out == null ? v : ArrayVector.from(out);
            }
            case PyTuple t -> {
                Object r = resolveShared(t.items());
                yield r == t.items() ? v : new PyTuple((List<Object>) r);
            }
            case Map<?, ?> m -> {
                // The copy starts at the first entry that changes: most states hold no shared list, and
                // copying every map of a state on every compare was most of the resolve's cost.
                OrderedPMap<Object, Object> out = null;
                int i = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    Object r = resolveShared(e.getValue());
                    if (r != e.getValue() && out == null) out = prefix(m, i);
                    if (out != null) out = out.plus(e.getKey(), r);
                    i++;
                }
                yield out == null ? v : out;
            }
            default -> v;
        };
    }

    /** The first {@code n} entries of {@code m}, in order. */
    static OrderedPMap<Object, Object> prefix(Map<?, ?> m, int n) {
        OrderedPMap<Object, Object> out = OrderedPMap.empty();
        int i = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (i++ == n) break;
            out = out.plus(e.getKey(), e.getValue());
        }
        return out;
    }
}
