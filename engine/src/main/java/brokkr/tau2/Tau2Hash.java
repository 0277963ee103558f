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
import java.util.Map;

/**
 * tau2's DB hash: {@code tau2.utils.utils.get_dict_hash(db.model_dump())} =
 * {@code sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()}.
 *
 * <p>Memoized on the persistent value nodes: every container whose text is at most {@link #LIMIT} bytes caches its
 * sorted-keys JSON bytes in memo slot 0, and a root caches its hex digest in memo slot 1. A world that
 * differs from a hashed one only along one path re-serializes that path; the SHA-256 pass over the
 * whole text remains (a few ms for retail's 3 MB).
 */
public final class Tau2Hash {
    private Tau2Hash() {}

    /** Containers whose text is longer are streamed (children cached) instead of cached whole. */
    static final int LIMIT = 32 * 1024;
    private static final PyJson.DumpOptions SORTED = PyJson.DumpOptions.SORTED;

    /** sha256 hex of {@code json.dumps(v, sort_keys=True)} (ensure_ascii, default separators). */
    public static String hash(Value v) {
        Object memo = memo(v, 1);
        if (memo instanceof String s) return s;
        MessageDigest md = sha256();
        Sink sink = new Sink(md);
        write(v, sink);
        sink.flush();
        String hex = HexFormat.of().formatHex(md.digest());
        setMemo(v, 1, hex);
        return hex;
    }

    /** The exact text hashed (for diagnostics). */
    public static String sortedJson(Value v) { return PyJson.dumps(v, SORTED); }

    private static final class Sink {
        final MessageDigest md;
        final byte[] buf = new byte[1 << 16];
        int n;
        Sink(MessageDigest md) { this.md = md; }
        void put(byte[] b) {
            if (b.length > buf.length - n) flush();
            if (b.length >= buf.length) { md.update(b); return; }
            System.arraycopy(b, 0, buf, n, b.length);
            n += b.length;
        }
        void put(byte b) { if (n == buf.length) flush(); buf[n++] = b; }
        void flush() { md.update(buf, 0, n); n = 0; }
    }

    private static final byte[] COMMA = ", ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COLON = ": ".getBytes(StandardCharsets.US_ASCII);
    /** Memo marker of a container whose text exceeds {@link #LIMIT}: it is streamed, its children cached. */
    private static final Object LARGE = new Object();

    private static void write(Value v, Sink sink) {
        byte[] b = bytesOrNull(v);
        if (b != null) { sink.put(b); return; }
        if (v instanceof PyDict d) {
            sink.put((byte) '{');
            boolean first = true;
            for (Map.Entry<String, Value> e : sortedEntries(d)) {
                if (!first) sink.put(COMMA);
                first = false;
                sink.put(keyBytes(e.getKey()));
                sink.put(COLON);
                write(e.getValue(), sink);
            }
            sink.put((byte) '}');
        } else {
            sink.put((byte) '[');
            boolean first = true;
            for (Value item : (PyList) v) {
                if (!first) sink.put(COMMA);
                first = false;
                write(item, sink);
            }
            sink.put((byte) ']');
        }
    }

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
        if (memo instanceof byte[] b) return b;
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
        setMemo(v, 0, b);
        return b;
    }

    private static byte[] keyBytes(String k) {
        StringBuilder sb = new StringBuilder(k.length() + 2);
        try {
            PyJson.writeString(k, true, sb);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static Iterable<Map.Entry<String, Value>> sortedEntries(PyDict d) {
        ArrayList<Map.Entry<String, Value>> list = new ArrayList<>(d.entries());
        list.sort((a, b) -> PyStrings.compare(a.getKey(), b.getKey()));
        return list;
    }

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
