package brokkr.eval;

import brokkr.python.PyJson;
import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Content addresses: the lowercase hex sha256 of a value's canonical JSON. Canonical here means
 * {@code json.dumps(v, sort_keys=True, ensure_ascii=True)} (Python's default separators), so a
 * definition's id is also reproducible from Python with one line. A minimal local form until the
 * world branch's {@code ContentId} lands; both hash canonical JSON, so ids can be migrated by
 * recomputation, never by guessing.
 */
public final class ContentHash {
    private ContentHash() {}

    public static String canonicalJson(Value v) { return PyJson.dumps(v, PyJson.DumpOptions.SORTED); }

    public static String of(Value v) { return sha256(canonicalJson(v)); }

    public static String sha256(String text) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("SHA-256 is a required JDK algorithm", e);
        }
    }
}
