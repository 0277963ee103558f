package brokkr.world;

import brokkr.value.Value;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The content address of a definition (a task, a tool set, a world's initial state ...): sha256 over
 * its canonical JSON text.
 *
 * <h2>Canonical form</h2>
 * Python's {@code json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)}, encoded as
 * ASCII, so an id can be recomputed from Python with
 * {@code hashlib.sha256(json.dumps(v, sort_keys=True, separators=(",", ":")).encode()).hexdigest()}:
 * <ul>
 *   <li>dict keys sorted by code point (so dict insertion order does not matter), list order does;</li>
 *   <li>no whitespace; every character outside printable ASCII (U+0020..U+007E) as a {@code \}{@code uXXXX}
 *       escape (UTF-16 units, so a supplementary character is two escapes); {@code "}, {@code \}, {@code \n},
 *       {@code \r}, {@code \t}, {@code \b}, {@code \f} as their short escapes;</li>
 *   <li>ints in decimal, floats as Python's {@code repr} ({@code 1.0}, {@code 1e-07}), non-finite
 *       floats as {@code NaN}/{@code Infinity}/{@code -Infinity} (as Python writes them), so
 *       {@code 1} and {@code 1.0} are different content, and {@code true} differs from {@code 1}.</li>
 * </ul>
 *
 * @param hex 64 lowercase hex digits
 */
public record ContentId(String hex) {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    /** Hex digits in {@link #shortForm()}: 48 bits, collision-free in practice for the definitions of a project. */
    public static final int SHORT_LENGTH = 12;

    public ContentId {
        if (hex == null || !HEX64.matcher(hex).matches())
            throw new IllegalArgumentException("not a sha256 hex digest: " + hex);
    }

    public static ContentId of(Value definition) {
        byte[] digest =
                new DigestWriter(WorldHash.newSha256(), true, -1, Integer.MAX_VALUE, ",", ":").digest(definition);
        return new ContentId(HexFormat.of().formatHex(digest));
    }

    /** The first {@value #SHORT_LENGTH} hex digits, for names and logs. */
    public String shortForm() {
        return hex.substring(0, SHORT_LENGTH);
    }

    @Override
    public String toString() {
        return hex;
    }
}
