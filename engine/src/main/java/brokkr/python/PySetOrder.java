package brokkr.python;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The order in which CPython 3.11 iterates a set built by adding its members one by one (a set display,
 * {@code set(list)}, {@code s.add}) and never shrunk: Objects/setobject.c's open-addressed table (8 slots to
 * start, linear probes of up to 9 further slots, then perturbed probing; resized to 4 x used when 3/5 full,
 * re-inserting in table order), with {@link PyHash}'s hashes. Members whose hash depends on an address (None,
 * NaN, custom objects) leave the insertion order.
 */
public final class PySetOrder {
    private PySetOrder() {}

    private static final int LINEAR_PROBES = 9;
    private static final int PERTURB_SHIFT = 5;

    /** The members added in this order, as CPython iterates the set (a member equal to an earlier one is not added). */
    public static List<Object> order(List<Object> added) {
        List<Object> insertionOrder = new ArrayList<>(added.size());
        List<Long> hashList = new ArrayList<>(added.size());
        for (Object o : added) {
            OptionalLong h = PyHash.hash(o);
            if (h.isEmpty()) return added;
            boolean dup = false;
            for (int j = 0; j < insertionOrder.size() && !dup; j++) {
                dup = hashList.get(j) == h.getAsLong() && PyObjects.eq(insertionOrder.get(j), o);
            }
            if (dup) continue;
            insertionOrder.add(o);
            hashList.add(h.getAsLong());
        }
        int n = insertionOrder.size();
        if (n < 2) return insertionOrder;
        long[] hashes = new long[n];
        for (int i = 0; i < n; i++) hashes[i] = hashList.get(i);
        int mask = 7;
        int[] table = newTable(mask);
        int used = 0;
        for (int k = 0; k < n; k++) {
            insert(table, mask, hashes, k);
            used++;
            if ((long) used * 5 >= (long) mask * 3) {
                int minused = used > 50000 ? used * 2 : used * 4;
                int size = 8;
                while (size <= minused) size <<= 1;
                int[] bigger = newTable(size - 1);
                for (int slot : table) if (slot >= 0) insert(bigger, size - 1, hashes, slot);
                table = bigger;
                mask = size - 1;
            }
        }
        List<Object> out = new ArrayList<>(n);
        for (int slot : table) if (slot >= 0) out.add(insertionOrder.get(slot));
        return out;
    }

    private static int[] newTable(int mask) {
        int[] t = new int[mask + 1];
        java.util.Arrays.fill(t, -1);
        return t;
    }

    /** set_add_entry / set_insert_clean for a key known to be absent (no dummies: nothing is removed). */
    private static void insert(int[] table, int mask, long[] hashes, int k) {
        long hash = hashes[k];
        long perturb = hash;
        int i = (int) (hash & mask);
        while (true) {
            if (table[i] < 0) {
                table[i] = k;
                return;
            }
            if (i + LINEAR_PROBES <= mask) {
                for (int j = 1; j <= LINEAR_PROBES; j++) {
                    if (table[i + j] < 0) {
                        table[i + j] = k;
                        return;
                    }
                }
            }
            perturb >>>= PERTURB_SHIFT;
            i = (int) ((i * 5L + 1 + perturb) & mask);
        }
    }
}
