package brokkr.python;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Consumer;
import org.pcollections.PVector;

/**
 * The persistent vector Python's {@code list} values are made of: one array, never written after construction; an
 * update copies it. Python lists in the backends and results are built whole and read far more often than they are
 * updated (walked by every result's rendering, state hash and deferred-value scan), where pcollections'
 * {@code TreePVector} (a balanced tree of boxed indices) pays a tree descent per element read and an insertion with
 * rebalancing per element built. An update costs O(n) here instead of O(log n); the lists of the BFCL backends are
 * short or, when long (long-context data), never updated.
 */
public final class ArrayVector<E> extends AbstractList<E> implements PVector<E>, RandomAccess {
    private static final ArrayVector<?> EMPTY = new ArrayVector<>(new Object[0]);

    private final Object[] items;

    private ArrayVector(Object[] items) {
        this.items = items;
    }

    @SuppressWarnings("unchecked")
    public static <E> ArrayVector<E> empty() {
        return (ArrayVector<E>) EMPTY;
    }

    /** The items of {@code c} in its order (the same vector when {@code c} is one). */
    @SuppressWarnings("unchecked")
    public static <E> ArrayVector<E> from(Collection<? extends E> c) {
        if (c instanceof ArrayVector<?> v) return (ArrayVector<E>) v;
        if (c.isEmpty()) return empty();
        return new ArrayVector<>(c.toArray());
    }

    @SafeVarargs
    public static <E> ArrayVector<E> of(E... items) {
        return items.length == 0 ? empty() : new ArrayVector<>(items.clone());
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        return (E) items[index]; // an index out of range throws, as a List's get does
    }

    @Override
    public int size() {
        return items.length;
    }

    @Override
    public Iterator<E> iterator() {
        return new Iterator<>() {
            int next;

            @Override
            public boolean hasNext() {
                return next < items.length;
            }

            @Override
            @SuppressWarnings("unchecked")
            public E next() {
                if (next >= items.length) throw new NoSuchElementException();
                return (E) items[next++];
            }
        };
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(Consumer<? super E> action) {
        for (Object x : items) action.accept((E) x);
    }

    @Override
    public Object[] toArray() {
        return items.clone();
    }

    @Override
    public int indexOf(Object o) {
        for (int i = 0; i < items.length; i++) if (Objects.equals(o, items[i])) return i;
        return -1;
    }

    @Override
    public ArrayVector<E> plus(E e) {
        Object[] out = Arrays.copyOf(items, items.length + 1);
        out[items.length] = e;
        return new ArrayVector<>(out);
    }

    @Override
    public ArrayVector<E> plusAll(Collection<? extends E> c) {
        if (c.isEmpty()) return this;
        if (items.length == 0) return from(c);
        Object[] add = c.toArray();
        Object[] out = Arrays.copyOf(items, items.length + add.length);
        System.arraycopy(add, 0, out, items.length, add.length);
        return new ArrayVector<>(out);
    }

    @Override
    public ArrayVector<E> with(int i, E e) {
        Objects.checkIndex(i, items.length);
        if (items[i] == e) return this;
        Object[] out = items.clone();
        out[i] = e;
        return new ArrayVector<>(out);
    }

    @Override
    public ArrayVector<E> plus(int i, E e) {
        Objects.checkIndex(i, items.length + 1);
        Object[] out = new Object[items.length + 1];
        System.arraycopy(items, 0, out, 0, i);
        out[i] = e;
        System.arraycopy(items, i, out, i + 1, items.length - i);
        return new ArrayVector<>(out);
    }

    @Override
    public ArrayVector<E> plusAll(int i, Collection<? extends E> c) {
        Objects.checkIndex(i, items.length + 1);
        if (c.isEmpty()) return this;
        Object[] add = c.toArray();
        Object[] out = new Object[items.length + add.length];
        System.arraycopy(items, 0, out, 0, i);
        System.arraycopy(add, 0, out, i, add.length);
        System.arraycopy(items, i, out, i + add.length, items.length - i);
        return new ArrayVector<>(out);
    }

    /** Without the first item equal to {@code e} (this vector when there is none), as TreePVector.minus(Object). */
    @Override
    public ArrayVector<E> minus(Object e) {
        int i = indexOf(e);
        return i < 0 ? this : minus(i);
    }

    /** Each of {@code c}'s items removed once in turn, as TreePVector.minusAll. */
    @Override
    public ArrayVector<E> minusAll(Collection<?> c) {
        ArrayVector<E> out = this;
        for (Object e : c) out = out.minus(e);
        return out;
    }

    @Override
    public ArrayVector<E> minus(int i) {
        Objects.checkIndex(i, items.length);
        if (items.length == 1) return empty();
        Object[] out = new Object[items.length - 1];
        System.arraycopy(items, 0, out, 0, i);
        System.arraycopy(items, i + 1, out, i, items.length - i - 1);
        return new ArrayVector<>(out);
    }

    @Override
    public ArrayVector<E> subList(int from, int to) {
        Objects.checkFromToIndex(from, to, items.length);
        if (from == 0 && to == items.length) return this;
        if (from == to) return empty();
        return new ArrayVector<>(Arrays.copyOfRange(items, from, to));
    }

    @Deprecated
    @Override
    public boolean add(E e) {
        throw new UnsupportedOperationException();
    }

    @Deprecated
    @Override
    public boolean addAll(Collection<? extends E> c) {
        throw new UnsupportedOperationException();
    }

    @Deprecated
    @Override
    public boolean addAll(int index, Collection<? extends E> c) {
        throw new UnsupportedOperationException();
    }

    @Deprecated
    @Override
    public boolean remove(Object o) {
        throw new UnsupportedOperationException();
    }

    @Deprecated
    @Override
    public boolean removeAll(Collection<?> c) {
        throw new UnsupportedOperationException();
    }

    @Deprecated
    @Override
    public boolean retainAll(Collection<?> c) {
        throw new UnsupportedOperationException();
    }

    @Deprecated
    @Override
    public void clear() {
        throw new UnsupportedOperationException();
    }
}
