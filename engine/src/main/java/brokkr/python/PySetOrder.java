package brokkr.python;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The order in which CPython 3.11 iterates a set, from how it was built: Objects/setobject.c's open-addressed
 * table (8 slots to start, linear probes of up to 9 further slots, then perturbed probing; {@code set_add_entry}
 * resizes to 4 x used when 3/5 full, re-inserting in table order; {@code set_merge} resizes once to 2 x the
 * total and copies or re-inserts the other table), with {@link PyHash}'s hashes. A set display of more than two
 * constants is not built by adding its items: Python/compile.c's {@code starunpack_helper} folds it into a
 * frozenset constant that the compiler rebuilds on the way and {@code SET_UPDATE} merges into an empty set
 * ({@link #display}). Members whose hash depends on an address (None, NaN, custom
 * objects) leave the insertion order.
 */
public final class PySetOrder {
    private PySetOrder() {}

    private static final int LINEAR_PROBES = 9;
    private static final int PERTURB_SHIFT = 5;
    private static final int MINSIZE = 8;

    private static final java.util.Set<String> INTERNED_AT_STARTUP = readNames("interned-at-startup-3.11.txt");

    /**
     * Whether every CPython 3.11 process has interned {@code s} before running user code: a keyword, a name of the
     * builtins module or of a core type's attributes, or an identifier of a module a normal start-up (with site)
     * imports (gen_interned_names.py, probed in a fresh python3.11). Others that a process interned (identifiers of
     * the modules it loaded later, constants kept alive by its objects) are not known here.
     */
    public static boolean internedAtStartup(String s) {
        return INTERNED_AT_STARTUP.contains(s);
    }

    private static java.util.Set<String> readNames(String resource) {
        try (var in = PySetOrder.class.getResourceAsStream("/brokkr/python/" + resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            return java.util.Set.copyOf(text.lines().filter(l -> !l.isEmpty()).toList());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A built set's iteration order and the mask of its table (what a later {@code set_merge} depends on). */
    public record Shape(List<Object> order, int mask) {
        public Shape {
            order = List.copyOf(order);
        }
    }

    /** The members added one by one in this order (a member equal to an earlier one is not added). */
    public static List<Object> order(List<Object> added) {
        return added(added).order();
    }

    /** The set built by adding {@code added} one by one ({@code set(list)}, {@code s.add}, a short display). */
    public static Shape added(List<?> added) {
        Table t = new Table();
        for (Object o : added) {
            OptionalLong h = PyHash.hash(o);
            if (h.isEmpty()) return insertionOrder(added);
            t.add(o, h.getAsLong());
        }
        return t.shape();
    }

    /**
     * A set display {@code {c1, c2, ...}} of more than two constants as CPython 3.11 evaluates it:
     * Python/compile.c's {@code starunpack_helper} builds {@code frozenset(tuple)} of the items in source order;
     * {@code compiler_add_const} -> {@code merge_consts_recursive} replaces it by a new frozenset built from the
     * first one's iteration order; when the code object is made, Objects/codeobject.c's
     * {@code intern_string_constants} builds it once more from its iteration order if interning replaced one of its
     * str members (an identifier-like one, [A-Za-z0-9_]*, equal to a string {@code alreadyInterned} in the
     * process); at run time {@code BUILD_SET 0; SET_UPDATE} merges it into an empty set ({@link #mergedIntoEmpty}).
     */
    public static Shape display(List<?> constants, Predicate<String> alreadyInterned) {
        Shape folded = added(added(constants).order());
        for (Object o : folded.order()) {
            if (o instanceof String str && internedInPlaceReplaces(str, alreadyInterned)) {
                folded = added(folded.order());
                break;
            }
        }
        return mergedIntoEmpty(folded);
    }

    /**
     * Whether codeobject.c's {@code intern_string_constants} replaces this constant by another object: it interns
     * only {@code all_name_chars} strings, and replaces one when an equal one is interned already (measured so by
     * CPython 3.11 for one-character strings too: the parser's singleton is not the interned object).
     */
    private static boolean internedInPlaceReplaces(String s, Predicate<String> alreadyInterned) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean nameChar = c < 128 && (Character.isLetterOrDigit(c) || c == '_');
            if (!nameChar) return false;
        }
        return alreadyInterned.test(s);
    }

    /**
     * {@code set_merge(so, other)} of Objects/setobject.c into an empty {@code so} (8 slots, no dummies): one
     * resize to 2 x other.used if that would pass 3/5 full, then a pointer copy when the masks agree, else
     * {@code set_insert_clean} in {@code other}'s table order. What {@code BUILD_SET 0; SET_UPDATE} and
     * {@code set(a_set)} do.
     */
    public static Shape mergedIntoEmpty(Shape other) {
        Table t = new Table();
        int n = other.order().size();
        if ((long) n * 5 >= (long) t.mask * 3) t.resize(n * 2);
        if (t.mask == other.mask()) return other;
        for (Object o : other.order()) {
            OptionalLong h = PyHash.hash(o);
            if (h.isEmpty()) return other;
            t.addNoResize(o, h.getAsLong());
        }
        return t.shape();
    }

    /** Members that cannot be hashed here keep their insertion order (duplicates dropped). */
    private static Shape insertionOrder(List<?> added) {
        List<Object> out = new ArrayList<>(added.size());
        for (Object o : added) {
            boolean dup = false;
            for (int j = 0; j < out.size() && !dup; j++) dup = PyObjects.eq(out.get(j), o);
            if (!dup) out.add(o);
        }
        // the mask such a table would have after as many additions (what set_add_entry's resizes give)
        int mask = MINSIZE - 1;
        for (int used = 1; used <= out.size(); used++) {
            if ((long) used * 5 >= (long) mask * 3) {
                int size = MINSIZE;
                while (size <= (used > 50000 ? used * 2 : used * 4)) size <<= 1;
                mask = size - 1;
            }
        }
        return new Shape(out, mask);
    }

    /** The slots of a set's table: member indices into {@code members}, -1 for an empty slot. */
    private static final class Table {
        final List<Object> members = new ArrayList<>();
        final List<Long> hashes = new ArrayList<>();
        int mask = MINSIZE - 1;
        int[] slots = empty(MINSIZE);
        int used;

        /** set_add_entry: finds an equal member on the probe path or takes the first empty slot, then maybe resizes. */
        void add(Object key, long hash) {
            if (!insert(key, hash)) return;
            if ((long) used * 5 >= (long) mask * 3) resize(used > 50000 ? used * 2 : used * 4);
        }

        void addNoResize(Object key, long hash) {
            insert(key, hash);
        }

        private boolean insert(Object key, long hash) {
            long perturb = hash;
            int i = (int) (hash & mask);
            while (true) {
                int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
                for (int j = 0; j <= probes; j++) {
                    int at = slots[i + j];
                    if (at < 0) {
                        members.add(key);
                        hashes.add(hash);
                        slots[i + j] = members.size() - 1;
                        used++;
                        return true;
                    }
                    if (hashes.get(at) == hash && PyObjects.eq(members.get(at), key)) return false;
                }
                perturb >>>= PERTURB_SHIFT;
                i = (int) ((i * 5L + 1 + perturb) & mask);
            }
        }

        /** set_table_resize: the smallest power of two above {@code minused}, re-inserting in table order. */
        void resize(int minused) {
            int size = MINSIZE;
            while (size <= minused) size <<= 1;
            resizeTo(size - 1);
        }

        private void resizeTo(int newMask) {
            int[] old = slots;
            slots = empty(newMask + 1);
            mask = newMask;
            for (int at : old) if (at >= 0) cleanInsert(at);
        }

        /** set_insert_clean: the first empty slot on the probe path. */
        private void cleanInsert(int at) {
            long hash = hashes.get(at);
            long perturb = hash;
            int i = (int) (hash & mask);
            while (true) {
                int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
                for (int j = 0; j <= probes; j++) {
                    if (slots[i + j] < 0) {
                        slots[i + j] = at;
                        return;
                    }
                }
                perturb >>>= PERTURB_SHIFT;
                i = (int) ((i * 5L + 1 + perturb) & mask);
            }
        }

        Shape shape() {
            List<Object> out = new ArrayList<>(used);
            for (int at : slots) if (at >= 0) out.add(members.get(at));
            return new Shape(out, mask);
        }

        private static int[] empty(int n) {
            int[] t = new int[n];
            Arrays.fill(t, -1);
            return t;
        }
    }
}
