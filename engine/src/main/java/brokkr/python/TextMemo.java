package brokkr.python;

import java.util.Arrays;
import org.pcollections.PCollection;
import org.pcollections.PMap;

/**
 * The last text one rendering made of a persistent container, remembered by the container's identity: a persistent
 * value never changes, so its text is a function of the object, and a program that updates a big value keeps most of
 * its parts as the same objects (an unchanged subtree is then rendered once, not once per render of the whole).
 *
 * <p>Direct-mapped on {@link System#identityHashCode}, one immutable entry per slot: a lookup is an array read, a
 * miss replaces the slot, memory is bounded by the slot count (the entry keeps its key alive, so an identity match
 * cannot be a new object at a recycled address), and racing threads see an old or a new entry, never a torn one.
 * Only {@link #remembers remembered} kinds are persistent by construction; a mutable Java collection is never
 * looked up.
 */
public final class TextMemo {
    private record Entry(Object key, String text) {}

    private final Entry[] slots;
    private final int mask;
    private final int minLength;

    /** {@code slots} a power of two; texts shorter than {@code minLength} are cheaper made again than kept. */
    public TextMemo(int slots, int minLength) {
        if (Integer.bitCount(slots) != 1) throw new IllegalArgumentException("slots must be a power of two: " + slots);
        this.slots = new Entry[slots];
        this.mask = slots - 1;
        this.minLength = minLength;
    }

    /**
     * Whether {@code o} is immutable by construction and worth remembering: a pcollections vector, set or map, a
     * tuple (whose items list is an unmodifiable copy), or a long str. A container's text also depends on its items, which the model never mutates
     * once shared (the {@link PyObjects} convention).
     */
    public static boolean remembers(Object o) {
        return o instanceof PCollection<?>
                || o instanceof PMap<?, ?>
                || o instanceof PyTuple
                || (o instanceof String s && s.length() >= LONG_STR);
    }

    /** A str this long is worth remembering its escaped text (backends hand out long constant texts). */
    private static final int LONG_STR = 256;

    /** The text remembered for {@code key}, or null. */
    public String get(Object key) {
        Entry e = slots[System.identityHashCode(key) & mask];
        return e != null && e.key == key ? e.text : null;
    }

    /** Remembers {@code text} for {@code key} if it is long enough to be worth it. */
    public void put(Object key, String text) {
        if (text.length() >= minLength) slots[System.identityHashCode(key) & mask] = new Entry(key, text);
    }

    /** Remembers the text {@code sb} holds from {@code start} on for {@code key} (copied only if long enough). */
    public void put(Object key, StringBuilder sb, int start) {
        if (sb.length() - start >= minLength)
            slots[System.identityHashCode(key) & mask] = new Entry(key, sb.substring(start));
    }

    /** Forgets every text (a benchmark's run starts as a fresh process would). */
    public void clear() {
        Arrays.fill(slots, null);
    }
}
