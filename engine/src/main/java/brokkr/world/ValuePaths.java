package brokkr.world;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;

/**
 * Reading and updating nested worlds by path, as pure functions: a path step is a {@link String} (dict
 * key) or an {@link Integer} (list index; negative counts from the end, as in Python). An update
 * returns a new world sharing every untouched node with the old one (so hash memos of untouched
 * subtrees stay valid); the old world is unchanged.
 *
 * <p>Missing steps: {@code getIn} answers Java {@code null} for a missing dict key (like
 * {@link PyDict#get}, so callers can raise their own "not found"), while updates need every step but
 * the last to exist, as {@code db["orders"][oid]["status"] = s} does; {@code assocIn} may add a new
 * last key. A list index out of range throws {@link IndexOutOfBoundsException} (Python's
 * {@code IndexError}), a step into a value of the wrong type {@link ClassCastException}.
 */
public final class ValuePaths {
    private ValuePaths() {}

    /** The value at {@code path} ({@code v} itself for an empty path), or {@code null} when a dict key on the way is missing. */
    public static Value getIn(Value v, Object... path) {
        Value cur = v;
        for (Object step : path) {
            if (cur == null) return null;
            cur = switch (step) {
                case String k -> cur.asDict().get(k);
                case Integer i -> cur.asList().get(index(cur.asList(), i, path));
                default -> throw badStep(step);
            };
        }
        return cur;
    }

    /** {@code v} with the value at {@code path} replaced by (or, for a last dict key, set to) {@code x}. */
    public static Value assocIn(Value v, Value x, Object... path) {
        return assoc(v, path, 0, old -> x, true);
    }

    /** {@code v} with the value at {@code path} (which must exist) replaced by {@code f} of it. */
    public static Value updateIn(Value v, UnaryOperator<Value> f, Object... path) {
        return assoc(v, path, 0, f, false);
    }

    /** {@code v} without the dict key or list item at {@code path} (which must exist), like {@code del}. */
    public static Value dissocIn(Value v, Object... path) {
        if (path.length == 0) throw new IllegalArgumentException("empty path");
        Object last = path[path.length - 1];
        Object[] parent = Arrays.copyOf(path, path.length - 1);
        return updateIn(
                v,
                p -> switch (last) {
                    case String k -> {
                        if (!p.asDict().containsKey(k)) throw missing(path);
                        yield p.asDict().without(k);
                    }
                    case Integer i -> p.asList().minus(index(p.asList(), i, path));
                    default -> throw badStep(last);
                },
                parent);
    }

    private static Value assoc(Value v, Object[] path, int at, UnaryOperator<Value> f, boolean mayAdd) {
        if (at == path.length) return f.apply(v);
        Object step = path[at];
        return switch (step) {
            case String k -> {
                PyDict d = v.asDict();
                Value child = d.get(k);
                if (child == null && !(mayAdd && at == path.length - 1)) throw missing(Arrays.copyOf(path, at + 1));
                yield d.with(k, assoc(child, path, at + 1, f, mayAdd));
            }
            case Integer i -> {
                PyList l = v.asList();
                int idx = index(l, i, path);
                yield l.with(idx, assoc(l.get(idx), path, at + 1, f, mayAdd));
            }
            default -> throw badStep(step);
        };
    }

    private static int index(PyList l, int i, Object[] path) {
        int idx = i < 0 ? i + l.size() : i;
        if (idx < 0 || idx >= l.size())
            throw new IndexOutOfBoundsException("list index out of range: " + i + " in " + Arrays.toString(path));
        return idx;
    }

    private static NoSuchElementException missing(Object[] path) {
        return new NoSuchElementException("no value at " + Arrays.toString(path));
    }

    private static IllegalArgumentException badStep(Object step) {
        return new IllegalArgumentException("a path step is a String key or an Integer index, not " + step);
    }
}
