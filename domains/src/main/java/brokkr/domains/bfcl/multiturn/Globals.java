package brokkr.domains.bfcl.multiturn;

import java.util.function.Supplier;
import org.pcollections.HashTreePMap;
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
public record Globals(PMap<String, Object> cells) {
    public static final Globals EMPTY = new Globals(HashTreePMap.empty());

    /** The cell's value, or {@code initial.get()} if the cell was never written (import-time value). */
    public Object get(String cell, Supplier<Object> initial) {
        Object v = cells.get(cell);
        return v != null ? v : initial.get();
    }

    public Globals with(String cell, Object value) { return new Globals(cells.plus(cell, value)); }
}
