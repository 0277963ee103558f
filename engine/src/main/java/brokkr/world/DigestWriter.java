package brokkr.world;

import brokkr.python.PyJson;
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
import java.util.Arrays;
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
 * already part of the enclosing memo. Large containers keep nothing either: their framing and keys are
 * re-written on every hash, and their small children are fed to the digest straight from the memos.
 * So the memo bytes retained by one world are at most the length of its serialization (each output
 * byte is stored at most once, per key order), and re-hashing after an update re-serializes only the
 * large containers on the updated path (framing and keys) and the one small container that changed
 * (at most {@code threshold} bytes).
 *
 * <p>Smallness is decided while streaming: the bytes of every open container that may still be small
 * stay in the buffer; when the innermost open container reaches the threshold, it and every open
 * ancestor are large (they contain it), so their already completed small children are maximal and get
 * their memos from the buffer, and the buffer may then be flushed into the digest.
 *
 * <p>Leaf formatting (string escaping, {@code float.__repr__}, sorting of keys by code point) is
 * {@link PyJson}'s; the only local shortcut is copying a string that needs no escape as it is.
 */
final class DigestWriter implements Appendable {
    private static final int FLUSH_AT = 1 << 14;

    private final MessageDigest md;
    private final boolean sortKeys;
    /** Memo slot of {@link PyDict#memo(int)} / {@link PyList#memo(int)}, or -1 for no memoization. */
    private final int slot;
    private final int threshold;
    private final byte[] itemSep, keySep;

    private byte[] buf = new byte[FLUSH_AT + 1024];
    private int len;

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
    }

    private static byte[] ascii(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) b[i] = (byte) s.charAt(i);
        return b;
    }

    /** Writes the whole value and returns the digest. */
    byte[] digest(Value v) {
        write(v);
        md.update(buf, 0, len);
        len = 0;
        return md.digest();
    }

    private void write(Value v) {
        switch (v) {
            case PyStr s -> writeString(s.value());
            case PyInt i -> writeAscii(i.fitsLong() ? Long.toString(i.longValue()) : i.value().toString());
            case PyFloat f -> writeAscii(PyJson.floatJson(f.value()));
            case PyBool b -> writeAscii(b.value() ? "true" : "false");
            case PyNone n -> writeAscii("null");
            case PyList l -> writeList(l);
            case PyDict d -> writeDict(d);
        }
    }

    private void writeList(PyList l) {
        if (l.isEmpty()) { writeAscii("[]"); return; }
        if (memoHit(l.memo(Math.max(slot, 0)))) return;
        open(l);
        put((byte) '[');
        boolean first = true;
        for (Value item : l) {
            if (!first) put(itemSep);
            first = false;
            write(item);
            afterItem();
        }
        put((byte) ']');
        close();
    }

    private void writeDict(PyDict d) {
        if (d.isEmpty()) { writeAscii("{}"); return; }
        if (memoHit(d.memo(Math.max(slot, 0)))) return;
        open(d);
        put((byte) '{');
        boolean first = true;
        for (Map.Entry<String, Value> e : PyJson.entries(d, sortKeys)) {
            if (!first) put(itemSep);
            first = false;
            writeString(e.getKey());
            put(keySep);
            write(e.getValue());
            afterItem();
        }
        put((byte) '}');
        close();
    }

    private boolean memoHit(Object memo) {
        if (slot < 0 || !(memo instanceof byte[] bytes)) return false;
        if (smallFrom == depth) {
            // No open container may still be small, so nothing needs these bytes in the buffer.
            md.update(buf, 0, len);
            len = 0;
            md.update(bytes);
        } else {
            put(bytes);
        }
        return true;
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
        if (smallFrom == depth && len >= FLUSH_AT) {
            md.update(buf, 0, len);
            len = 0;
        }
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

    private void close() {
        depth--;
        Value node = frameNode[depth];
        frameNode[depth] = null;
        if (depth >= smallFrom) {
            int start = frameStart[depth];
            if (len - start >= threshold) {
                depth++;
                promoteAll();
                depth--;
            } else {
                // Small: the children's pending memos are not needed, this container's bytes include them.
                for (int i = framePending[depth]; i < pendCount; i++) pendNode[i] = null;
                pendCount = framePending[depth];
                if (depth == smallFrom) store(node, start, len); // parent is large (or this is the root): maximal
                else pend(node, start, len);
            }
        }
        if (smallFrom > depth) smallFrom = depth;
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
    @Override public Appendable append(char c) {
        put((byte) c);
        return this;
    }

    @Override public Appendable append(CharSequence cs) {
        return append(cs, 0, cs.length());
    }

    @Override public Appendable append(CharSequence cs, int start, int end) {
        ensure(end - start);
        for (int i = start; i < end; i++) buf[len++] = (byte) cs.charAt(i);
        return this;
    }
}
