package brokkr.tau2;

import brokkr.python.PyJson;
import brokkr.python.PyStrings;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * tau2's DB hash: {@code tau2.utils.utils.get_dict_hash(db.model_dump())} =
 * {@code sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()}.
 *
 * <p>Memoized on the persistent value nodes: every container whose text is at most {@link #LIMIT}
 * bytes caches its sorted-keys JSON bytes in memo slot 0, and a hashed root caches its hex digest in
 * memo slot 1. A world that differs from a hashed one only along one path re-serializes that path.
 * SHA-256 itself cannot be composed from parts, but it is sequential: the stream records the digest
 * state after each entry of the large containers, and a new world resumes from the state after the
 * longest prefix of entries it shares with the first or the last world hashed on this thread, so only
 * the text from the first changed entry on is digested.
 */
public final class Tau2Hash {
    private Tau2Hash() {}

    /** Containers whose text is longer are streamed (children cached) instead of cached whole. */
    static final int LIMIT = 32 * 1024;
    private static final PyJson.DumpOptions SORTED = PyJson.DumpOptions.SORTED;

    /** sha256 hex of {@code json.dumps(v, sort_keys=True)} (ensure_ascii, default separators). */
    public static String hash(Value v) {
        if (memo(v, 1) instanceof HexMemo(String hex)) return hex;
        byte[] whole = bytesOrNull(v);
        MessageDigest md;
        if (whole != null) {
            md = sha256();
            md.update(whole);
        } else {
            Stream cur = new Stream(candidates());
            writeLarge(v, cur);
            md = cur.finish();
            remember(cur);
        }
        String hex = HexFormat.of().formatHex(md.digest());
        setMemo(v, 1, new HexMemo(hex));
        return hex;
    }

    /**
     * Checkpointed streams of this thread: the first one (typically the pristine world every episode
     * or replayed sequence starts from) and the last one.
     */
    private static final ThreadLocal<Stream[]> STREAMS = ThreadLocal.withInitial(() -> new Stream[2]);

    private static Stream[] candidates() {
        Stream[] s = STREAMS.get();
        if (s[0] == null) return new Stream[0];
        if (s[1] == null || s[1] == s[0]) return new Stream[] {s[0]};
        return new Stream[] {s[1], s[0]};
    }

    private static void remember(Stream cur) {
        Stream[] s = STREAMS.get();
        if (s[0] == null) s[0] = cur;
        s[1] = cur;
    }

    /**
     * A streamed hash as a sequence of entries (of containers too large to cache whole), each preceded by
     * the structural bytes since the previous entry. SHA-256 is sequential, so while the new text's
     * entries are the same nodes (same bytes) as a previous hash's, the digest state after each is the
     * recorded one: feeding starts at the first entry no candidate shares, from the state before it.
     */
    private static final class Stream {
        final ArrayList<byte[]> pendings = new ArrayList<>();
        final ArrayList<String> keys = new ArrayList<>();
        final ArrayList<Value> nodes = new ArrayList<>();
        final ArrayList<MessageDigest> states = new ArrayList<>();
        final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        Stream[] alive; // candidates whose text equals this one's so far
        MessageDigest md; // null while some candidate's text equals this one's
        int j;

        Stream(Stream[] candidates) {
            this.alive = candidates;
            if (candidates.length == 0) md = sha256();
        }

        void structural(byte[] b) { pending.writeBytes(b); }
        void structural(int b) { pending.write(b); }

        private boolean same(Stream p, String key, Value node, byte[] pend) {
            return j < p.nodes.size() && p.nodes.get(j) == node && java.util.Objects.equals(p.keys.get(j), key)
                    && java.util.Arrays.equals(p.pendings.get(j), pend);
        }

        void entry(String key, byte[] keyBytes, Value node, byte[] childBytes) {
            byte[] pend = pending.toByteArray();
            pending.reset();
            if (md == null) {
                int n = 0;
                for (Stream p : alive) if (same(p, key, node, pend)) n++;
                if (n > 0) {
                    Stream[] still = new Stream[n];
                    int i = 0;
                    for (Stream p : alive) if (same(p, key, node, pend)) still[i++] = p;
                    MessageDigest state = still[0].states.get(j);
                    alive = still;
                    record(pend, key, node, state);
                    return;
                }
                md = j == 0 ? sha256() : copy(alive[0].states.get(j - 1));
                alive = null;
            }
            md.update(pend);
            if (keyBytes != null) {
                md.update(keyBytes);
                md.update(COLON);
            }
            md.update(childBytes);
            record(pend, key, node, copy(md));
        }

        private void record(byte[] pend, String key, Value node, MessageDigest state) {
            pendings.add(pend);
            keys.add(key);
            nodes.add(node);
            states.add(state);
            j++;
        }

        MessageDigest finish() {
            if (md == null) md = j == 0 ? sha256() : copy(alive[0].states.get(j - 1));
            alive = null;
            md.update(pending.toByteArray());
            return md;
        }
    }

    private static MessageDigest copy(MessageDigest md) {
        try {
            return (MessageDigest) md.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    /** Streams a container whose text exceeds {@link #LIMIT}: structure and large children recursively, cached children as entries. */
    private static void writeLarge(Value v, Stream s) {
        if (v instanceof PyDict d) {
            s.structural('{');
            boolean first = true;
            for (Map.Entry<String, Value> e : sortedEntries(d)) {
                if (!first) s.structural(COMMA);
                first = false;
                byte[] kb = keyBytes(e.getKey());
                byte[] child = bytesOrNull(e.getValue());
                if (child != null) {
                    s.entry(e.getKey(), kb, e.getValue(), child);
                } else {
                    s.structural(kb);
                    s.structural(COLON);
                    writeLarge(e.getValue(), s);
                }
            }
            s.structural('}');
        } else {
            s.structural('[');
            boolean first = true;
            for (Value item : (PyList) v) {
                if (!first) s.structural(COMMA);
                first = false;
                byte[] child = bytesOrNull(item);
                if (child != null) s.entry(null, null, item, child);
                else writeLarge(item, s);
            }
            s.structural(']');
        }
    }

    /** The exact text hashed (for diagnostics). */
    public static String sortedJson(Value v) { return PyJson.dumps(v, SORTED); }

    private static final byte[] COMMA = ", ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COLON = ": ".getBytes(StandardCharsets.US_ASCII);
    /**
     * Memo values are of these private types, so a slot another component reuses is only ever a cache
     * miss here, never misread.
     */
    private record JsonMemo(byte[] sortedJson) {}
    private record HexMemo(String sha256) {}

    /** Memo marker of a container whose text exceeds {@link #LIMIT}: it is streamed, its children cached. */
    private static final Object LARGE = new Object();

    /**
     * The sorted-keys JSON bytes of {@code v}, memoized on container nodes (slot 0), or null for a
     * container whose text is longer than {@link #LIMIT} (then memoized as {@link #LARGE}).
     */
    private static byte[] bytesOrNull(Value v) {
        if (!(v instanceof PyDict) && !(v instanceof PyList)) {
            return PyJson.dumps(v, SORTED).getBytes(StandardCharsets.US_ASCII);
        }
        Object memo = memo(v, 0);
        if (memo == LARGE) return null;
        if (memo instanceof JsonMemo(byte[] b)) return b;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean large = false;
        if (v instanceof PyDict d) {
            out.write('{');
            boolean first = true;
            for (Map.Entry<String, Value> e : sortedEntries(d)) {
                byte[] c = bytesOrNull(e.getValue());
                if (c == null) { large = true; break; }
                if (!first) out.writeBytes(COMMA);
                first = false;
                out.writeBytes(keyBytes(e.getKey()));
                out.writeBytes(COLON);
                out.writeBytes(c);
                if (out.size() > LIMIT) { large = true; break; }
            }
            out.write('}');
        } else {
            out.write('[');
            boolean first = true;
            for (Value item : (PyList) v) {
                byte[] c = bytesOrNull(item);
                if (c == null) { large = true; break; }
                if (!first) out.writeBytes(COMMA);
                first = false;
                out.writeBytes(c);
                if (out.size() > LIMIT) { large = true; break; }
            }
            out.write(']');
        }
        if (large) { setMemo(v, 0, LARGE); return null; }
        byte[] b = out.toByteArray();
        setMemo(v, 0, new JsonMemo(b));
        return b;
    }

    private static final java.util.concurrent.ConcurrentHashMap<String, byte[]> KEY_BYTES = new java.util.concurrent.ConcurrentHashMap<>();

    /** JSON text of a dict key; cached for the (bounded) key universe of large dicts' short keys. */
    private static byte[] keyBytes(String k) {
        if (k.length() > 64) return keyBytesUncached(k);
        byte[] b = KEY_BYTES.get(k);
        if (b == null) {
            b = keyBytesUncached(k);
            if (KEY_BYTES.size() < 1_000_000) KEY_BYTES.put(k, b);
        }
        return b;
    }

    private static byte[] keyBytesUncached(String k) {
        StringBuilder sb = new StringBuilder(k.length() + 2);
        try {
            PyJson.writeString(k, true, sb);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Map.Entry<String, Value>> sortedEntries(PyDict d) {
        ArrayList<Map.Entry<String, Value>> list = new ArrayList<>(d.entries());
        if (list.size() < 64) {
            list.sort((a, b) -> PyStrings.compare(a.getKey(), b.getKey()));
            return list;
        }
        // Large dicts (orders, users, ...) keep their key set across worlds: reuse the sorting permutation
        // of the last dict of this thread with the same keys in the same insertion order.
        int n = list.size();
        SortCache c = SORTS.get().computeIfAbsent(n, k -> new SortCache());
        int[] perm = null;
        if (c.keys != null && c.keys.length == n) {
            boolean same = true;
            for (int i = 0; i < n && same; i++) {
                String k = list.get(i).getKey();
                same = c.keys[i] == k || c.keys[i].equals(k);
            }
            if (same) perm = c.perm;
        }
        if (perm == null) {
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) idx[i] = i;
            java.util.Arrays.sort(idx, (x, y) -> PyStrings.compare(list.get(x).getKey(), list.get(y).getKey()));
            perm = new int[n];
            String[] keys = new String[n];
            for (int i = 0; i < n; i++) { perm[i] = idx[i]; keys[i] = list.get(i).getKey(); }
            c.keys = keys;
            c.perm = perm;
        }
        ArrayList<Map.Entry<String, Value>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(list.get(perm[i]));
        return out;
    }

    private static final class SortCache { String[] keys; int[] perm; }
    private static final ThreadLocal<java.util.HashMap<Integer, SortCache>> SORTS = ThreadLocal.withInitial(java.util.HashMap::new);

    private static Object memo(Value v, int slot) {
        return switch (v) {
            case PyDict d -> d.memo(slot);
            case PyList l -> l.memo(slot);
            default -> null;
        };
    }

    private static void setMemo(Value v, int slot, Object o) {
        switch (v) {
            case PyDict d -> d.memo(slot, o);
            case PyList l -> l.memo(slot, o);
            default -> { }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
