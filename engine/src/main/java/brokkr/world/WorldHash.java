package brokkr.world;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The hash of a world as upstream computes it (tau2-bench {@code tau2/utils/utils.py get_dict_hash}:
 * {@code hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()}; {@code default=str}
 * never applies to a {@link Value}),
 * without building the JSON text: it is streamed into the digest, and serialized subtrees are memoized
 * on the persistent nodes, so hashing a world again after an update re-serializes only what changed
 * (see {@link DigestWriter} for the memo policy and its memory bound).
 *
 * <p>Memo slot 0 of {@link PyDict}/{@link PyList} holds bytes for insertion order, slot 1 for sorted
 * keys; both are owned by this class. A memo is the exact {@code json.dumps} text (default
 * separators, {@code ensure_ascii=True}) of its immutable node, so it never goes stale; it is not
 * affected by the threshold either, which only decides which nodes get one.
 */
public final class WorldHash {
    /** Containers whose text is shorter than this many bytes are small (see {@link DigestWriter}). */
    public static final int DEFAULT_MEMO_THRESHOLD = 1024;

    private WorldHash() {}

    /** Hex sha256 of {@code json.dumps(world, sort_keys=sortKeys)}'s UTF-8 (here: ASCII) bytes. */
    public static String sha256(Value world, boolean sortKeys) {
        return sha256(world, sortKeys, DEFAULT_MEMO_THRESHOLD);
    }

    /** As {@link #sha256(Value, boolean)}, with a chosen memo threshold in bytes (benchmarks compare them). */
    public static String sha256(Value world, boolean sortKeys, int memoThreshold) {
        return HexFormat.of().formatHex(digest(world, sortKeys, memoThreshold));
    }

    public static byte[] digest(Value world, boolean sortKeys, int memoThreshold) {
        if (memoThreshold < 1) throw new IllegalArgumentException("memo threshold must be positive: " + memoThreshold);
        return new DigestWriter(newSha256(), sortKeys, sortKeys ? 1 : 0, memoThreshold, ", ", ": ").digest(world);
    }

    /**
     * Bytes of heap held by the hash memos reachable from {@code world} for one key order: the byte
     * arrays' lengths plus their object headers (16 bytes, 8-byte aligned, as on a 64-bit JVM with
     * compressed pointers). Shared nodes count once.
     */
    public static long retainedMemoBytes(Value world, boolean sortKeys) {
        int slot = sortKeys ? 1 : 0;
        long total = 0;
        Set<Value> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<Value> todo = new ArrayDeque<>();
        todo.push(world);
        while (!todo.isEmpty()) {
            Value v = todo.pop();
            Object memo;
            Iterable<Value> children;
            switch (v) {
                case PyDict d -> { memo = d.memo(slot); children = d.asMap().values(); }
                case PyList l -> { memo = l.memo(slot); children = l; }
                default -> { continue; }
            }
            if (!seen.add(v)) continue;
            if (memo instanceof byte[] b) total += (16 + b.length + 7) & ~7L;
            for (Value c : children) if (c instanceof PyDict || c instanceof PyList) todo.push(c);
        }
        return total;
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
