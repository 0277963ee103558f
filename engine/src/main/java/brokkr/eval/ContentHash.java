package brokkr.eval;

import brokkr.python.PyJson;
import brokkr.value.Value;
import brokkr.world.ContentId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Content addresses of definitions: {@link ContentId} (sha256 of canonical JSON, reproducible from
 * Python with one line), plus the sha256 of plain text (system prompts) and a readable sorted JSON
 * form for storing a definition next to its id.
 */
public final class ContentHash {
    private ContentHash() {}

    /** The definition's content id (lowercase hex sha256 of its canonical JSON). */
    public static String of(Value v) {
        return ContentId.of(v).hex();
    }

    /** Sorted-key JSON of a definition, as stored beside its id (readable; the id is over {@link ContentId}'s form). */
    public static String canonicalJson(Value v) {
        return PyJson.dumps(v, PyJson.DumpOptions.SORTED.withEnsureAscii(false));
    }

    public static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The lower-case hex SHA-256 of {@code bytes} (a pinned file's digest, as its provenance gives it). */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("SHA-256 is a required JDK algorithm", e);
        }
    }
}
