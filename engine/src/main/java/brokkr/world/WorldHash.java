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
import java.util.concurrent.atomic.LongAdder;

/**
 * The hash of a world as upstream computes it (tau2-bench {@code tau2/utils/utils.py get_dict_hash}:
 * {@code hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()}; {@code default=str}
 * never applies to a {@link Value}), in either key order, without building the JSON text. This is the
 * one world hash of the project: the tau2 environments ({@code Tau2Environment.dbHash}), evaluation,
 * experiments and benchmarks all call it. Three layers of reuse make re-hashing an updated world cheap:
 * <ol>
 *   <li><b>Text memos</b> on the persistent nodes ({@link DigestWriter}): small subtrees keep their
 *       exact bytes, large ones a skeleton, so an update re-serializes only the changed path.</li>
 *   <li><b>Digest checkpoints</b> ({@link DigestCheckpoints}): SHA-256 cannot be composed from parts,
 *       but it is sequential; the digest state after each memoized child of the large containers is
 *       recorded, and a world whose text starts with the same children as a world hashed before on
 *       this thread resumes from the state after that shared prefix. Only the text from the first
 *       changed child on is digested.</li>
 *   <li><b>A hex memo on the root</b>: hashing the same world again is a field read.</li>
 * </ol>
 *
 * <p>Memo layout: slot 0 of {@link PyDict}/{@link PyList} is insertion order, slot 1 sorted keys;
 * both are owned by this class, so the two orders never evict each other. A slot holds the exact
 * {@code json.dumps} text (default separators, {@code ensure_ascii=True}) of a small node as a
 * {@code byte[]}, a large node's skeleton ({@code Object[]} of its own text runs and its container
 * children), or, on a hashed root, a {@link Hashed} holding one of those and the hex digest. Each
 * depends only on the node and the key order (never on the threshold, which only decides which nodes
 * get which kind), so it never goes stale. Hashing the same world from several threads at once is
 * safe: memos are published through volatile fields, two threads computing one memo store equal
 * values, and checkpoints are per thread.
 */
public final class WorldHash {
    /**
     * Containers whose text is shorter than this many bytes are small (see {@link DigestWriter}). On the
     * tau2 retail and airline dbs (WorldBench) 16 KiB beat 256 B .. 4 KiB on both memory (memos 1.04-1.05x
     * the text) and re-hash time, which the digest's own pass over every byte dominates; re-serializing
     * one changed small container (at most this many bytes) costs far less than that pass. The small
     * children of large containers are also the checkpoint granularity: a changed world resumes at
     * most one such child's text before its first change.
     */
    public static final int DEFAULT_MEMO_THRESHOLD = 16 * 1024;

    private WorldHash() {}

    /**
     * Bytes fed to SHA-256 by world hashes in this JVM, all threads: what {@code bench replay} compares
     * with {@link MessageDigest}'s own time for as many bytes (its floor). Each hash adds its count once,
     * at its end, so counting costs one striped add per hash, not per update.
     */
    private static final LongAdder DIGESTED = new LongAdder();

    /** Bytes fed to SHA-256 by world hashes so far (JVM-wide, monotonic): take the difference around a piece of work. */
    public static long digestedBytes() {
        return DIGESTED.sum();
    }

    /**
     * Bytes of the texts of the world hashes computed in this JVM (all threads; a root's hex memo hit is
     * not a hash computed): what a hash that digests every world's whole text would feed to SHA-256, as
     * upstream's {@code get_dict_hash} does. {@code bench replay} reports its floor beside the one of
     * {@link #digestedBytes()}: the digest checkpoints are what puts the replay below it.
     */
    private static final LongAdder HASHED_TEXT = new LongAdder();

    /** Bytes of the texts of the world hashes computed so far (JVM-wide, monotonic; see {@link #digestedBytes()}). */
    public static long hashedTextBytes() {
        return HASHED_TEXT.sum();
    }

    static void countDigested(long digested, long text) {
        DIGESTED.add(digested);
        HASHED_TEXT.add(text);
    }

    /** A hashed root's memo: its text memo ({@code byte[]} or skeleton) and the hex digest of that text. */
    record Hashed(Object text, String hex) {}

    /** Hex sha256 of {@code json.dumps(world, sort_keys=sortKeys)}'s UTF-8 (here: ASCII) bytes. */
    public static String sha256(Value world, boolean sortKeys) {
        return sha256(world, sortKeys, DEFAULT_MEMO_THRESHOLD);
    }

    /** As {@link #sha256(Value, boolean)}, with a chosen memo threshold in bytes (benchmarks compare them). */
    public static String sha256(Value world, boolean sortKeys, int memoThreshold) {
        if (memoThreshold < 1) throw new IllegalArgumentException("memo threshold must be positive: " + memoThreshold);
        int slot = sortKeys ? 1 : 0;
        Object memo = memo(world, slot);
        if (memo instanceof Hashed h) return h.hex();
        boolean container = (world instanceof PyDict d && !d.isEmpty()) || (world instanceof PyList l && !l.isEmpty());
        if (!container) {
            // A leaf or an empty container: a few bytes, nothing to keep.
            DigestWriter w = new DigestWriter(newSha256(), sortKeys, slot, memoThreshold, ", ", ": ");
            byte[] digest = w.digest(world);
            countDigested(w.digested(), w.digested());
            return HexFormat.of().formatHex(digest);
        }
        if (memo == null) {
            new DigestWriter(null, sortKeys, slot, memoThreshold, ", ", ": ").memoize(world);
            memo = memo(world, slot);
            if (memo instanceof Hashed h) return h.hex(); // another thread finished meanwhile
        }
        byte[] digest = switch (memo) {
            case byte[] text -> {
                countDigested(text.length, text.length);
                yield newSha256().digest(text);
            }
            case Object[] skeleton ->
                DigestCheckpoints.digest(
                        skeleton,
                        slot,
                        child -> new DigestWriter(null, sortKeys, slot, memoThreshold, ", ", ": ").memoize(child));
            default -> throw new IllegalStateException("not a world hash memo: " + memo.getClass());
        };
        String hex = HexFormat.of().formatHex(digest);
        setMemo(world, slot, new Hashed(memo, hex));
        return hex;
    }

    /** Bytes of {@link #sha256(Value, boolean, int)}'s digest. */
    public static byte[] digest(Value world, boolean sortKeys, int memoThreshold) {
        return HexFormat.of().parseHex(sha256(world, sortKeys, memoThreshold));
    }

    /** A slot's text memo: the memo itself, or a hashed root's text. */
    static Object text(Object memo) {
        return memo instanceof Hashed h ? h.text() : memo;
    }

    static Object memo(Value v, int slot) {
        // instanceof rather than a type switch: this runs once per entry of every hash.
        if (v instanceof PyDict d) return d.memo(slot);
        if (v instanceof PyList l) return l.memo(slot);
        return null;
    }

    private static void setMemo(Value v, int slot, Object memo) {
        switch (v) {
            case PyDict d -> d.memo(slot, memo);
            case PyList l -> l.memo(slot, memo);
            default -> throw new AssertionError(v.typeName());
        }
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
                case PyDict d -> {
                    memo = d.memo(slot);
                    children = d.asMap().values();
                }
                case PyList l -> {
                    memo = l.memo(slot);
                    children = l;
                }
                default -> {
                    continue;
                }
            }
            if (!seen.add(v)) continue;
            if (memo instanceof Hashed h) {
                // The record (header, two references) and its 64-char Latin-1 String (object + array).
                total += 24 + 24 + arrayBytes(h.hex().length(), 1);
                memo = h.text();
            }
            if (memo instanceof byte[] b) total += arrayBytes(b.length, 1);
            if (memo instanceof Object[] skeleton) {
                total += arrayBytes(skeleton.length, 4);
                for (Object part : skeleton) if (part instanceof byte[] run) total += arrayBytes(run.length, 1);
            }
            for (Value c : children) if (c instanceof PyDict || c instanceof PyList) todo.push(c);
        }
        return total;
    }

    /**
     * Estimated heap bytes of this thread's digest checkpoints (both key orders: the first and the last
     * world hashed on this thread, see {@link DigestCheckpoints}), not counting the worlds' nodes.
     */
    public static long retainedCheckpointBytes() {
        return DigestCheckpoints.retainedBytes();
    }

    /**
     * Drops this thread's digest checkpoints, and with them its references to the last and the first
     * world it hashed (a thread moving on to unrelated worlds; benchmarks measuring a clean start).
     */
    public static void forgetCheckpoints() {
        DigestCheckpoints.forget();
    }

    /** An array's heap size: 16-byte header, elements (4-byte compressed references), 8-byte aligned. */
    private static long arrayBytes(int length, int elementBytes) {
        return (16L + (long) length * elementBytes + 7) & ~7L;
    }

    /** A fresh SHA-256 digest (every Java platform has one). */
    public static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
