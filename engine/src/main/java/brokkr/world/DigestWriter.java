package brokkr.world;

import brokkr.python.PyJson;
import brokkr.python.PyStrings;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams Python's {@code json.dumps(v, ensure_ascii=True)} text of a value into a {@link MessageDigest}
 * as ASCII bytes, never holding more than a small buffer, optionally memoizing serialized subtrees on
 * the persistent nodes themselves.
 *
 * <h2>Memo policy (bounded memory)</h2>
 * A container whose serialized text is shorter than {@code threshold} bytes is <em>small</em>. Only a
 * <em>maximal</em> small container — one whose parent is large, or the root — keeps its exact bytes in
 * its memo slot; small containers nested inside a small container keep nothing, since their bytes are
 * already part of the enclosing memo. A large container keeps a <em>skeleton</em>: its own text
 * (brackets, separators, keys, leaf values) as byte runs between references to its container
 * children, whose memos hold the rest. So every byte of a world's text is stored at most once per key
 * order (the memos of one world add up to its text length plus array headers and references: 1.04x
 * to 1.18x on the tau2 dbs, see WorldBench), hashing an unchanged world is feeding stored runs to the
 * digest, and re-hashing after an update re-serializes at most the one small container that changed
 * (under {@code threshold} bytes) and the own text of the large containers on the updated path (keys
 * and sorting included); every other subtree is fed from memos.
 *
 * <p>Smallness is decided while streaming: the bytes of every open container that may still be small
 * stay in the buffer; when the innermost open container reaches the threshold, it and every open
 * ancestor are large (they contain it), so their already completed small children are maximal and get
 * their memos from the buffer, and the buffer may then be flushed into the digest.
 *
 * <p>{@link WorldHash} uses a writer without a digest ({@link #memoize}) to bring a world's memos up to
 * date, then digests the memos itself through {@link DigestCheckpoints}; {@link ContentId} digests
 * directly, without memos (other separators).
 *
 * <p>Leaf formatting (string escaping, {@code float.__repr__}) is {@link PyJson}'s and key order is
 * {@link PyStrings#compare}'s; the local shortcuts are copying a string that needs no escape as it is,
 * and comparing keys by UTF-16 unit where that agrees with code point order ({@link #compareKeys}).
 */
final class DigestWriter implements Appendable {
    private static final int FLUSH_AT = 1 << 14;
    /** Memos at least this long go to the digest directly, shorter ones through the buffer. */
    private static final int DIRECT_AT = 1 << 11;

    /** Null when only memoizing: {@link #memoize} fills the memos and discards the text. */
    private final MessageDigest md;

    private final boolean sortKeys;
    /** Memo slot of {@link PyDict#memo(int)} / {@link PyList#memo(int)}, or -1 for no memoization. */
    private final int slot;

    private final int threshold;
    private final byte[] itemSep, keySep;
    /** json.dumps's default separators ({@code ", "}, {@code ": "}), those of the shared skeleton runs. */
    private final boolean defaultSeps;

    private byte[] buf = takeBuffer();
    private int len;
    /** Bytes handed to the digest so far. */
    private long digested;

    /** The open containers, outermost first. */
    private Value[] frameNode = new Value[32];

    private int[] frameStart = new int[32];
    private int[] framePending = new int[32];
    private int depth;
    /** Index of the outermost open container that may still be small; {@code depth} when none is. */
    private int smallFrom;

    /** Completed small children of open small-candidate containers: their memos, should those turn out large. */
    private Value[] pendNode = new Value[32];

    private int[] pendStart = new int[32];
    private int[] pendEnd = new int[32];
    private int pendCount;

    DigestWriter(MessageDigest md, boolean sortKeys, int slot, int threshold, String itemSep, String keySep) {
        this.md = md;
        this.sortKeys = sortKeys;
        this.slot = slot;
        this.threshold = threshold;
        this.itemSep = ascii(itemSep);
        this.keySep = ascii(keySep);
        this.defaultSeps = itemSep.equals(", ") && keySep.equals(": ");
    }

    private static byte[] ascii(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) b[i] = (byte) s.charAt(i);
        return b;
    }

    /**
     * This thread's spare buffer: a world hash makes a writer per hash and per patched child, and a new
     * 17 KB buffer each was a quarter of a tau2 replay's allocation. A writer takes the spare (a writer
     * nested in another finds none and starts small) and gives it back when done.
     */
    private static final ThreadLocal<byte[]> SPARE = new ThreadLocal<>();

    private static byte[] takeBuffer() {
        byte[] b = SPARE.get();
        if (b == null) return new byte[1024];
        SPARE.set(null);
        return b;
    }

    private void releaseBuffer() {
        if (buf.length <= 1 << 20 && SPARE.get() == null) SPARE.set(buf); // a huge one is not kept
        buf = null;
    }

    /** Writes the whole value and returns the digest. */
    byte[] digest(Value v) {
        write(v);
        flush();
        releaseBuffer();
        return md.digest();
    }

    /**
     * Fills the memos of {@code v} and its subtrees without digesting (this writer has no digest): a
     * large container's existing skeleton is taken as it is, without walking its children, whose memos
     * it was built from. Afterwards a non-empty container {@code v} has its memo.
     */
    void memoize(Value v) {
        if (md != null) throw new IllegalStateException("a digesting writer");
        write(v);
        len = 0;
        releaseBuffer();
    }

    private void flush() {
        if (md != null) {
            md.update(buf, 0, len);
            digested += len;
        }
        len = 0;
    }

    /** Bytes this writer has handed to its digest. */
    long digested() {
        return digested;
    }

    private void write(Value v) {
        // Most frequent first.
        if (v instanceof PyStr s) writeString(s.value());
        else if (v instanceof PyDict d) writeDict(d);
        else if (v instanceof PyList l) writeList(l);
        else if (v instanceof PyInt i)
            writeAscii(i.fitsLong() ? Long.toString(i.longValue()) : i.value().toString());
        else if (v instanceof PyFloat f) writeAscii(PyJson.floatJson(f.value()));
        else if (v instanceof PyBool b) writeAscii(b.value() ? "true" : "false");
        else if (v instanceof PyNone) writeAscii("null");
        else throw new AssertionError(v.getClass());
    }

    private void writeList(PyList l) {
        Object memo = slot < 0 ? null : WorldHash.text(l.memo(slot));
        if (memo != null && memoHit(memo)) return;
        if (l.isEmpty()) {
            writeAscii("[]");
            return;
        }
        open(l);
        put((byte) '[');
        boolean first = true;
        for (Value item : l) {
            if (memoizingLarge()) {
                if (item instanceof PyDict || item instanceof PyList) write(item);
                afterItem();
                continue;
            }
            if (!first) put(itemSep);
            first = false;
            write(item);
            afterItem();
        }
        put((byte) ']');
        if (close() && slot >= 0) l.memo(slot, skeleton(null, l.items(), null));
    }

    private void writeDict(PyDict d) {
        Object memo = slot < 0 ? null : WorldHash.text(d.memo(slot));
        if (memo != null && memoHit(memo)) return;
        if (d.isEmpty()) {
            writeAscii("{}");
            return;
        }
        boolean cached = md == null && sortKeys && d.size() >= SORT_CACHE_FROM;
        if (cached) {
            SortOrder last = SortOrder.LAST.get().get(d.size());
            if (last != null && last.patch(this, d)) return;
        }
        List<Map.Entry<String, Value>> entries = entries(d);
        // The permutation entries() just used (a nested dict of the same size may replace the order's later).
        SortOrder order = cached ? SortOrder.LAST.get().get(entries.size()) : null;
        int[] perm = order == null ? null : order.perm;
        open(d);
        put((byte) '{');
        boolean first = true;
        for (Map.Entry<String, Value> e : entries) {
            if (memoizingLarge()) {
                Value v = e.getValue();
                if (v instanceof PyDict || v instanceof PyList) write(v);
                afterItem();
                continue;
            }
            if (!first) put(itemSep);
            first = false;
            writeString(e.getKey());
            put(keySep);
            write(e.getValue());
            afterItem();
        }
        put((byte) '}');
        if (close() && slot >= 0) {
            int[] partAt = order == null ? null : new int[entries.size()];
            Object[] skeleton = skeleton(entries, null, partAt);
            d.memo(slot, skeleton);
            if (order != null) order.remember(entries, perm, skeleton, partAt, slot);
        }
    }

    /**
     * Memoizing only, and the innermost open container is large: its own text (keys, separators,
     * leaves) is written once, by {@link #skeleton}; only its container children still need their memos.
     */
    private boolean memoizingLarge() {
        return md == null && smallFrom == depth;
    }

    @SuppressWarnings("unchecked")
    private List<Map.Entry<String, Value>> entries(PyDict d) {
        // sorted(d.items()): keys in code point order, as PyJson.entries sorts them (a record's order cached per key
        // set).
        if (sortKeys && d.size() < SORT_CACHE_FROM) return Arrays.asList(d.sortedEntries(PyStrings.CODE_POINT_ORDER));
        Map.Entry<String, Value>[] entries = d.entries().toArray(new Map.Entry[0]);
        if (sortKeys) entries = SortOrder.sorted(entries);
        return Arrays.asList(entries);
    }

    /** Dicts with at least this many keys reuse their sorting permutation ({@link SortOrder}). */
    private static final int SORT_CACHE_FROM = 64;

    /**
     * The sorting permutation of the last large dict of this thread with a given size, and the skeleton
     * memoizing gave it. An update of one entry of a large table (orders, users) makes a new dict with
     * the same keys in the same insertion order, whose permutation is then a check of its keys (mostly
     * by identity, as the persistent map shares the key strings) instead of a sort, and whose skeleton
     * is the previous one with the changed children replaced ({@link #patch}) instead of a new walk of
     * every entry (key runs, leaves, every child's memo).
     */
    private static final class SortOrder {
        private static final ThreadLocal<java.util.HashMap<Integer, SortOrder>> LAST =
                ThreadLocal.withInitial(java.util.HashMap::new);
        /**
         * Recent sorted orders by the last key of their insertion order (keys and permutation only): a
         * table one key longer than a dict sorted earlier is found by its second-to-last key even when
         * other dicts of that size were sorted since (each replayed sequence adds to its own copy of
         * the initial tables).
         */
        private static final int BY_LAST_KEY_MAX = 64;

        private static final ThreadLocal<Map<String, SortOrder>> BY_LAST_KEY = ThreadLocal.withInitial(() ->
                new LinkedHashMap<>(
                        16, 0.75f,
                        true) { // least recently used out: the initial tables' orders are used again and again
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, SortOrder> eldest) {
                        return size() > BY_LAST_KEY_MAX;
                    }
                });
        private String[] keys;
        private int[] perm;
        /**
         * The last skeleton memoizing built for a dict of this size, with that dict's keys and values in
         * insertion order, each entry's position in sorted order, and where each sorted position's value
         * is in the skeleton (-1: inside a run).
         */
        private Object[] skeleton;

        private String[] skeletonKeys;
        private Value[] values;
        private int[] sortedAt;
        private int[] partAt;
        private int skeletonSlot;
        /** Key -> insertion index of the remembered dict, built when a patch first looks keys up. */
        private HashMap<String, Integer> keyIndex;
        /** The text length of that dict, or -1 when some child is large (patching needs every changed child's length). */
        private long textLength;

        @SuppressWarnings("unchecked")
        static Map.Entry<String, Value>[] sorted(Map.Entry<String, Value>[] entries) {
            int n = entries.length;
            java.util.HashMap<Integer, SortOrder> last = LAST.get();
            // Bounded: a table that keeps growing leaves one entry per size it had.
            if (last.size() >= 16 && !last.containsKey(n)) last.clear();
            SortOrder c = last.computeIfAbsent(n, k -> new SortOrder());
            boolean same = c.keys != null;
            for (int i = 0; i < n && same; i++) {
                String k = entries[i].getKey();
                same = c.keys[i] == k || c.keys[i].equals(k);
            }
            if (!same
                    && !c.extend(last.get(n - 1), entries)
                    && !(n >= 2 && c.extend(BY_LAST_KEY.get().get(entries[n - 2].getKey()), entries))) {
                Integer[] idx = new Integer[n];
                for (int i = 0; i < n; i++) idx[i] = i;
                Arrays.sort(idx, (x, y) -> compareKeys(entries[x].getKey(), entries[y].getKey()));
                String[] keys = new String[n];
                int[] perm = new int[n];
                for (int i = 0; i < n; i++) {
                    keys[i] = entries[i].getKey();
                    perm[i] = idx[i];
                }
                c.keys = keys;
                c.perm = perm;
            }
            if (!same) {
                Map<String, SortOrder> byLast = BY_LAST_KEY.get();
                SortOrder o = new SortOrder();
                o.keys = c.keys;
                o.perm = c.perm;
                byLast.put(c.keys[n - 1], o);
            }
            Map.Entry<String, Value>[] out = new Map.Entry[n];
            for (int i = 0; i < n; i++) out[i] = entries[c.perm[i]];
            return out;
        }

        /**
         * Sets this order to {@code shorter}'s with one key appended: a key added to a large table (a new
         * transaction, referral, application) goes to the end of its insertion order, so when
         * {@code entries} are {@code shorter}'s keys and then one more, its sorted position is found by a
         * binary search instead of sorting every key again. False (nothing changed) otherwise.
         */
        boolean extend(SortOrder shorter, Map.Entry<String, Value>[] entries) {
            int n = entries.length;
            if (shorter == null || shorter.keys == null || shorter.keys.length != n - 1) return false;
            for (int i = 0; i < n - 1; i++) {
                String k = entries[i].getKey();
                if (shorter.keys[i] != k && !shorter.keys[i].equals(k)) return false;
            }
            String added = entries[n - 1].getKey();
            int lo = 0, hi = n - 1; // first sorted position whose key is greater than the added one (keys are distinct)
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (compareKeys(shorter.keys[shorter.perm[mid]], added) < 0) lo = mid + 1;
                else hi = mid;
            }
            String[] keys = Arrays.copyOf(shorter.keys, n);
            keys[n - 1] = added;
            int[] perm = new int[n];
            System.arraycopy(shorter.perm, 0, perm, 0, lo);
            perm[lo] = n - 1;
            System.arraycopy(shorter.perm, lo, perm, lo + 1, n - 1 - lo);
            this.keys = keys;
            this.perm = perm;
            return true;
        }

        /** The skeleton memoizing built for the dict whose sorted entries these are ({@code perm}: sorted position -> insertion index). */
        void remember(List<Map.Entry<String, Value>> sorted, int[] perm, Object[] skeleton, int[] partAt, int slot) {
            int n = sorted.size();
            long length = 0;
            for (Object part : skeleton) {
                if (part instanceof byte[] run) length += run.length;
                else if (WorldHash.text(WorldHash.memo((Value) part, slot)) instanceof byte[] text)
                    length += text.length;
                else length = Long.MIN_VALUE; // a large child: its length is not at hand
            }
            String[] keys = new String[n];
            Value[] vals = new Value[n];
            int[] at = new int[n];
            for (int s = 0; s < n; s++) {
                int i = perm[s];
                keys[i] = sorted.get(s).getKey();
                vals[i] = sorted.get(s).getValue();
                at[i] = s;
            }
            this.skeleton = skeleton;
            this.skeletonKeys = keys;
            this.values = vals;
            this.sortedAt = at;
            this.partAt = partAt;
            this.skeletonSlot = slot;
            this.textLength = Math.max(-1, length);
            this.keyIndex = null;
        }

        /**
         * Memoizes {@code d} from the remembered skeleton when it has the remembered dict's keys in the
         * same insertion order (so the same sorted order) and only container children changed, each still
         * small and the dict still large: the skeleton a full walk would build, from one pass over the
         * entries (no sorting, no copy of them). False (nothing stored) when that does not apply.
         */
        boolean patch(DigestWriter w, PyDict d) {
            if (skeleton == null || skeletonSlot != w.slot || textLength < 0 || d.size() != skeletonKeys.length) {
                d.dropOrigin();
                return false;
            }
            int n = skeletonKeys.length;
            Changes changes = new Changes(Math.max(4, n / 8));
            boolean known = changesAlongOrigins(d, changes);
            d.dropOrigin();
            if (!known) {
                changes.count = 0;
                int i = 0;
                for (Map.Entry<String, Value> e : d.entries()) {
                    String key = e.getKey();
                    if (key != skeletonKeys[i] && !key.equals(skeletonKeys[i])) return false;
                    Value v = e.getValue();
                    if (v != values[i] && !changes.add(i, v)) return false; // many changes: another lineage, walk it
                    i++;
                }
            }
            long length = textLength;
            for (int k = 0; k < changes.count; k++) {
                int i = changes.at[k];
                Value v = changes.now[k];
                // A leaf, or a container that became a leaf or empty, changes a run: walk the dict.
                if (partAt[sortedAt[i]] < 0
                        || !((v instanceof PyDict vd && !vd.isEmpty()) || (v instanceof PyList vl && !vl.isEmpty()))) {
                    return false;
                }
                Object was = WorldHash.text(WorldHash.memo(values[i], w.slot));
                Object text = WorldHash.text(WorldHash.memo(v, w.slot));
                if (text == null) {
                    new DigestWriter(null, w.sortKeys, w.slot, w.threshold, ", ", ": ")
                            .memoize(v); // a maximal child: as a root
                    text = WorldHash.text(WorldHash.memo(v, w.slot));
                }
                if (!(was instanceof byte[] wasText) || !(text instanceof byte[] nowText)) return false;
                length += nowText.length - wasText.length;
            }
            if (length < w.threshold) return false; // the dict became small: its memo is its bytes
            Object[] parts = skeleton.clone();
            for (int k = 0; k < changes.count; k++) {
                parts[partAt[sortedAt[changes.at[k]]]] = changes.now[k];
                values[changes.at[k]] = changes.now[k];
            }
            d.memo(w.slot, parts);
            skeleton = parts;
            textLength = length;
            w.memoHit(parts); // a large container: every open one is large as well
            return true;
        }

        /**
         * The entries of {@code d} that differ from the remembered dict's, from {@code d}'s chain of
         * origins (each a replaced value of an existing key) when it leads back to the remembered dict:
         * a look at the changed keys instead of a walk of every entry. False when the chain does not
         * lead there (or too many keys changed): walk.
         */
        private boolean changesAlongOrigins(PyDict d, Changes changes) {
            PyDict x = d;
            for (PyDict o = x.origin(); o != null; x = o, o = x.origin()) {
                String key = x.changedKey();
                if (key == null) return false;
                if (keyIndex == null) {
                    keyIndex = new HashMap<>(skeletonKeys.length * 2);
                    for (int i = 0; i < skeletonKeys.length; i++) keyIndex.put(skeletonKeys[i], i);
                }
                Integer i = keyIndex.get(key);
                if (i == null) return false;
                if (!changes.has(i)) {
                    Value v = d.get(key);
                    if (v != values[i] && !changes.add(i, v)) return false;
                }
                if (WorldHash.text(o.memo(skeletonSlot)) == skeleton) return true;
            }
            return false;
        }
    }

    /** Changed entries of a large dict: insertion index and new value. */
    private static final class Changes {
        final int[] at;
        final Value[] now;
        int count;

        Changes(int capacity) {
            at = new int[capacity];
            now = new Value[capacity];
        }

        boolean has(int i) {
            for (int k = 0; k < count; k++) if (at[k] == i) return true;
            return false;
        }

        /** False when full. */
        boolean add(int i, Value v) {
            if (count == at.length) return false;
            at[count] = i;
            now[count++] = v;
            return true;
        }
    }

    /**
     * The skeleton of a large container: its own text (brackets, separators, keys, leaf values) as
     * byte runs, alternating with its non-empty container children, whose memos hold the rest.
     */
    private Object[] skeleton(List<Map.Entry<String, Value>> entries, List<Value> items, int[] partAt) {
        // The buffer's tail is the scratch space: what is written past mark is taken out again.
        int mark = len;
        ArrayList<Object> parts = new ArrayList<>();
        put((byte) (entries != null ? '{' : '['));
        int n = entries != null ? entries.size() : items.size();
        java.util.HashMap<String, byte[]> keyRuns = defaultSeps ? KEY_RUNS.get() : null;
        for (int i = 0; i < n; i++) {
            if (keyRuns != null && i > 0 && len == mark) {
                // The previous element was a container child: this run is the shared one.
                Value v = entries != null ? entries.get(i).getValue() : items.get(i);
                if ((v instanceof PyDict d && !d.isEmpty()) || (v instanceof PyList l && !l.isEmpty())) {
                    parts.add(entries != null ? keyRun(keyRuns, entries.get(i).getKey(), mark) : LIST_RUN);
                    if (partAt != null) partAt[i] = parts.size();
                    parts.add(v);
                    continue;
                }
            }
            if (i > 0) put(itemSep);
            Value v;
            if (entries != null) {
                writeString(entries.get(i).getKey());
                put(keySep);
                v = entries.get(i).getValue();
            } else {
                v = items.get(i);
            }
            if ((v instanceof PyDict d && !d.isEmpty()) || (v instanceof PyList l && !l.isEmpty())) {
                parts.add(Arrays.copyOfRange(buf, mark, len));
                len = mark;
                if (partAt != null) partAt[i] = parts.size();
                parts.add(v);
            } else {
                if (partAt != null) partAt[i] = -1;
                write(v);
            }
        }
        put((byte) (entries != null ? '}' : ']'));
        parts.add(Arrays.copyOfRange(buf, mark, len));
        len = mark;
        return parts.toArray();
    }

    /**
     * Skeleton runs {@code , "key": } of dict entries between two container children, per key, shared by
     * the skeletons of this thread: an updated large dict's new skeleton reuses its predecessor's runs
     * (no re-escaping, no new arrays, and {@link DigestCheckpoints} matches them by identity). Bounded:
     * cleared when it reaches {@link #KEY_RUNS_MAX} keys.
     */
    private static final ThreadLocal<java.util.HashMap<String, byte[]>> KEY_RUNS =
            ThreadLocal.withInitial(java.util.HashMap::new);

    private static final int KEY_RUNS_MAX = 1 << 14;
    /** The run between two container items of a large list, with the default separator. */
    private static final byte[] LIST_RUN = {',', ' '};

    private byte[] keyRun(java.util.HashMap<String, byte[]> keyRuns, String key, int mark) {
        byte[] run = keyRuns.get(key);
        if (run == null) {
            put(itemSep);
            writeString(key);
            put(keySep);
            run = Arrays.copyOfRange(buf, mark, len);
            len = mark;
            if (keyRuns.size() >= KEY_RUNS_MAX) keyRuns.clear();
            keyRuns.put(key, run);
        }
        return run;
    }

    /**
     * {@link PyStrings#compare} (code point order) with a fast path: UTF-16 unit order agrees with code
     * point order at the first differing unit unless both units are at or above U+D800 (a surrogate
     * against a surrogate or against U+E000..U+FFFF), where the exact comparison decides.
     */
    static int compareKeys(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i), y = b.charAt(i);
            if (x != y) return (x < 0xD800 || y < 0xD800) ? x - y : PyStrings.compare(a, b);
        }
        return a.length() - b.length();
    }

    /** Feeds a memo: a small container's bytes, or a large container's skeleton. */
    private boolean memoHit(Object memo) {
        if (memo instanceof byte[] bytes) {
            // Memoizing only, and every open container is large: nothing needs these bytes.
            if (md == null && smallFrom == depth) return true;
            if (smallFrom == depth && bytes.length >= DIRECT_AT) {
                // No open container may still be small, so nothing needs these bytes in the buffer.
                flush();
                if (md != null) {
                    md.update(bytes);
                    digested += bytes.length;
                }
            } else {
                // Short memos are gathered in the buffer: one digest call per many of them.
                put(bytes);
                if (smallFrom == depth && len >= FLUSH_AT) flush();
            }
            return true;
        }
        if (memo instanceof Object[] skeleton) {
            // A large container: every open container holds it, so all of them are large as well.
            if (smallFrom < depth) promoteAll();
            // Memoizing only: its children's memos are in place (the skeleton was built from them).
            if (md == null) return true;
            for (Object part : skeleton) {
                if (part instanceof byte[] run) {
                    put(run);
                    if (len >= FLUSH_AT) flush();
                } else {
                    write((Value) part);
                }
            }
            return true;
        }
        return false;
    }

    private void open(Value node) {
        if (depth == frameNode.length) {
            int n = depth * 2;
            frameNode = Arrays.copyOf(frameNode, n);
            frameStart = Arrays.copyOf(frameStart, n);
            framePending = Arrays.copyOf(framePending, n);
        }
        frameNode[depth] = node;
        frameStart[depth] = len;
        framePending[depth] = pendCount;
        depth++;
        if (slot < 0) smallFrom = depth;
    }

    /** After each element of the innermost container: promote it when it has grown large, flush when possible. */
    private void afterItem() {
        if (smallFrom < depth && len - frameStart[depth - 1] >= threshold) promoteAll();
        if (smallFrom == depth && len >= FLUSH_AT) flush();
    }

    /** Every open container is large: the completed small children of those that were candidates are maximal. */
    private void promoteAll() {
        for (int i = 0; i < pendCount; i++) {
            store(pendNode[i], pendStart[i], pendEnd[i]);
            pendNode[i] = null;
        }
        pendCount = 0;
        smallFrom = depth;
    }

    /** Closes the innermost container; answers whether it is large. */
    private boolean close() {
        depth--;
        Value node = frameNode[depth];
        frameNode[depth] = null;
        boolean large = true;
        if (depth >= smallFrom) {
            int start = frameStart[depth];
            if (len - start >= threshold) {
                depth++;
                promoteAll();
                depth--;
            } else {
                large = false;
                // Small: the children's pending memos are not needed, this container's bytes include them.
                for (int i = framePending[depth]; i < pendCount; i++) pendNode[i] = null;
                pendCount = framePending[depth];
                if (depth == smallFrom) store(node, start, len); // parent is large (or this is the root): maximal
                else pend(node, start, len);
            }
        }
        if (smallFrom > depth) smallFrom = depth;
        return large;
    }

    private void pend(Value node, int start, int end) {
        if (pendCount == pendNode.length) {
            int n = pendCount * 2;
            pendNode = Arrays.copyOf(pendNode, n);
            pendStart = Arrays.copyOf(pendStart, n);
            pendEnd = Arrays.copyOf(pendEnd, n);
        }
        pendNode[pendCount] = node;
        pendStart[pendCount] = start;
        pendEnd[pendCount] = end;
        pendCount++;
    }

    private void store(Value node, int start, int end) {
        byte[] bytes = Arrays.copyOfRange(buf, start, end);
        switch (node) {
            case PyDict d -> d.memo(slot, bytes);
            case PyList l -> l.memo(slot, bytes);
            default -> throw new AssertionError(node.typeName());
        }
    }

    // ---- bytes ----

    /**
     * A string as {@code json.dumps} writes it with {@code ensure_ascii=True}: printable ASCII other
     * than {@code "} and {@code \} is copied; anything else goes through {@link PyJson#writeString}.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int) is exact for chars below 256
    private void writeString(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                try {
                    PyJson.writeString(s, true, this);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                return;
            }
        }
        ensure(n + 2);
        byte[] b = buf;
        int p = len;
        b[p++] = '"';
        s.getBytes(0, n, b, p); // deprecated but exact here: every char is printable ASCII
        p += n;
        b[p++] = '"';
        len = p;
    }

    @SuppressWarnings("deprecation")
    private void writeAscii(String s) {
        int n = s.length();
        ensure(n);
        s.getBytes(0, n, buf, len);
        len += n;
    }

    private void put(byte b) {
        ensure(1);
        buf[len++] = b;
    }

    private void put(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
    }

    private void ensure(int n) {
        if (len + n > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }

    /** {@link PyJson#writeString} writes here; with {@code ensure_ascii} every char it writes is ASCII. */
    @Override
    public Appendable append(char c) {
        put((byte) c);
        return this;
    }

    @Override
    public Appendable append(CharSequence cs) {
        return append(cs, 0, cs.length());
    }

    @Override
    public Appendable append(CharSequence cs, int start, int end) {
        ensure(end - start);
        for (int i = start; i < end; i++) buf[len++] = (byte) cs.charAt(i);
        return this;
    }
}
