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
 * <p>Memo slot 0 of {@link PyDict}/{@link PyList} is for insertion order, slot 1 for sorted keys; both
 * are owned by this class. A memo is either the exact {@code json.dumps} text (default separators,
 * {@code ensure_ascii=True}) of a small immutable node as a {@code byte[]}, or a large node's skeleton
 * ({@code Object[]} of its own text runs and its container children); either way it never goes stale,
 * and it does not depend on the threshold, which only decides which nodes get which kind. Hashing
 * the same world from several threads at once is safe: memos are published through volatile fields,
 * and two threads computing one memo store equal values.
 */
public final class WorldHash {
    /**
     * Containers whose text is shorter than this many bytes are small (see {@link DigestWriter}). On the
     * tau2 retail and airline dbs (WorldBench) 16 KiB beat 256 B .. 4 KiB on both memory (memos 1.04-1.05x
     * the text) and re-hash time, which the digest's own pass over every byte dominates; re-serializing
     * one changed small container (at most this many bytes) costs far less than that pass.
     */
    public static final int DEFAULT_MEMO_THRESHOLD = 16 * 1024;

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
     * Bytes of heap held by the hash memos reachable from {@code world} for one key order: the memo
     * arrays (small containers' bytes, large containers' skeletons and their byte runs) with their
     * headers, as laid out on a 64-bit JVM with compressed references. Shared nodes count once.
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
            if (memo instanceof byte[] b) total += arrayBytes(b.length, 1);
            if (memo instanceof Object[] skeleton) {
                total += arrayBytes(skeleton.length, 4);
                for (Object part : skeleton) if (part instanceof byte[] run) total += arrayBytes(run.length, 1);
            }
            for (Value c : children) if (c instanceof PyDict || c instanceof PyList) todo.push(c);
        }
        return total;
    }

    /** An array's heap size: 16-byte header, elements (4-byte compressed references), 8-byte aligned. */
    private static long arrayBytes(int length, int elementBytes) {
        return (16L + (long) length * elementBytes + 7) & ~7L;
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
