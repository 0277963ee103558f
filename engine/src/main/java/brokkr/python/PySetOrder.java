package brokkr.python;

import java.util.ArrayList;
import java.util.List;

/**
 * The order CPython 3.11 iterates a set in (what {@code repr(set)} and {@code for x in s} show), for members
 * added in the given order: Objects/setobject.c's open-addressing table ({@code set_add_entry}: start at
 * {@code hash & mask}, up to {@code LINEAR_PROBES} = 9 neighbours, then {@code perturb >>= 5;
 * i = (i * 5 + 1 + perturb) & mask}), 8 slots at first, grown to the smallest power of two above
 * {@code used * 4} (above 50,000 members {@code used * 2}) when {@code fill * 5 >= mask * 3}, the old table
 * re-inserted in slot order ({@code set_insert_clean}). Hashes are {@link PyHash}'s (PYTHONHASHSEED=0);
 * duplicates ({@code ==} with equal hash) keep the first. No member is ever removed here, so there are no dummies.
 */
public final class PySetOrder {
    private PySetOrder() {}

    private static final int LINEAR_PROBES = 9;
    private static final int PERTURB_SHIFT = 5;
    private static final int MIN_SIZE = 8;

    /** The members of {@code set(members)} in CPython's iteration order. */
    public static List<Object> order(List<?> members) {
        Object[] keys = new Object[MIN_SIZE];
        long[] hashes = new long[MIN_SIZE];
        int used = 0;
        for (Object m : members) {
            long h = PyHash.hash(m);
            int mask = keys.length - 1;
            if (!add(keys, hashes, mask, m, h)) continue;
            used++;
            if ((long) used * 5 >= (long) mask * 3) {
                int minused = used > 50000 ? used * 2 : used * 4;
                int size = MIN_SIZE;
                while (size <= minused) size <<= 1;
                Object[] nk = new Object[size];
                long[] nh = new long[size];
                for (int i = 0; i < keys.length; i++) if (keys[i] != null) insertClean(nk, nh, size - 1, keys[i], hashes[i]);
                keys = nk;
                hashes = nh;
            }
        }
        List<Object> out = new ArrayList<>(used);
        for (Object k : keys) if (k != null) out.add(k);
        return out;
    }

    /** set_add_entry without dummies; false when an equal member is present. */
    private static boolean add(Object[] keys, long[] hashes, int mask, Object key, long hash) {
        long perturb = hash;
        int i = (int) (hash & mask);
        while (true) {
            int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
            int j = i;
            do {
                if (keys[j] == null) {
                    keys[j] = key;
                    hashes[j] = hash;
                    return true;
                }
                if (hashes[j] == hash && PyObjects.eq(keys[j], key)) return false;
                j++;
            } while (probes-- > 0);
            perturb >>>= PERTURB_SHIFT;
            i = (int) ((i * 5L + 1 + perturb) & mask);
        }
    }

    private static void insertClean(Object[] keys, long[] hashes, int mask, Object key, long hash) {
        long perturb = hash;
        int i = (int) (hash & mask);
        while (true) {
            if (keys[i] == null) { keys[i] = key; hashes[i] = hash; return; }
            if (i + LINEAR_PROBES <= mask) {
                for (int j = 1; j <= LINEAR_PROBES; j++) {
                    if (keys[i + j] == null) { keys[i + j] = key; hashes[i + j] = hash; return; }
                }
            }
            perturb >>>= PERTURB_SHIFT;
            i = (int) ((i * 5L + 1 + perturb) & mask);
        }
    }
}
