package brokkr.python;

import brokkr.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * pydantic v2 (pydantic-core) {@code ValidationError} texts, as {@code str(e)} renders them; the
 * validation that produces them is {@link PydanticSchema}'s.
 *
 * <p>The oracle corpora were recorded with pydantic 2.10.6, so every URL reads
 * {@code https://errors.pydantic.dev/2.10/v/...}; {@link #ERRORS_URL_PREFIX} is the single place
 * that version lives.
 */
public final class Pydantic {
    private Pydantic() {}

    /** pydantic-core {@code get_formated_url}: major.minor of the pydantic that produced the oracle. */
    public static final String ERRORS_URL_PREFIX = "https://errors.pydantic.dev/2.10/v/";

    /** One line error: location (joined with '.', empty at the root), message, error type, the offending input. */
    public record LineError(String loc, String msg, String type, Value input) {}

    /** Lax-mode {@code str} field check ({@link PydanticSchema.StrSchema}). */
    public static void checkStr(String field, Value input, List<LineError> errors) {
        PydanticSchema.STR.validate(input, PydanticSchema.Loc.ROOT.at(field), errors);
    }

    /** Raises {@code ValidationError} for {@code title} when {@code errors} is not empty. */
    public static void raiseIfAny(String title, List<LineError> errors) {
        if (!errors.isEmpty()) throw validationError(title, errors);
    }

    public static PyException validationError(String title, List<LineError> errors) {
        return new PyException("ValidationError", render(title, errors));
    }

    /** pydantic-core {@code ValidationError.display}: header, then each line error's pretty form joined by newlines. */
    public static String render(String title, List<LineError> errors) {
        StringBuilder sb = new StringBuilder();
        int n = errors.size();
        sb.append(n)
                .append(" validation error")
                .append(n == 1 ? "" : "s")
                .append(" for ")
                .append(title)
                .append('\n');
        List<String> lines = new ArrayList<>();
        for (LineError e : errors) {
            // pydantic-core Location's Display: the joined location and a newline, nothing at the root
            lines.add(
                    (e.loc().isEmpty() ? "" : e.loc() + "\n") + "  " + e.msg() + " [type=" + e.type() + ", input_value="
                            + truncateInput(PyRepr.repr(e.input())) + ", input_type="
                            + e.input().typeName()
                            + "]\n    For further information visit " + ERRORS_URL_PREFIX + e.type());
        }
        sb.append(String.join("\n", lines));
        return sb.toString();
    }

    /**
     * pydantic-core {@code truncate_input_value!}: a repr longer than 50 UTF-8 bytes keeps its first 25
     * bytes (floored to a char boundary), "...", and its last 24 bytes (ceiled to a char boundary).
     */
    static String truncateInput(String repr) {
        byte[] b = repr.getBytes(StandardCharsets.UTF_8);
        if (b.length <= 50) return repr;
        int head = 25;
        while (head > 0 && isContinuation(b[head])) head--;
        int tail = b.length - 24;
        while (tail < b.length && isContinuation(b[tail])) tail++;
        return new String(b, 0, head, StandardCharsets.UTF_8) + "..."
                + new String(b, tail, b.length - tail, StandardCharsets.UTF_8);
    }

    private static boolean isContinuation(byte x) {
        return (x & 0xC0) == 0x80;
    }
}
