package brokkr.python;

/**
 * A Python {@code bytes} (an object of {@link PyObjects}' model beyond the JSON-like core): its bytes as
 * the chars U+0000..U+00FF of {@code latin1}.
 */
public record PyBytes(String latin1) implements PyObjects.Custom {
    @Override
    public String pyTypeName() {
        return "bytes";
    }

    /** Objects/bytesobject.c PyBytes_Repr: single quotes, \t \n \r and \xNN for the rest outside ASCII's printable range. */
    @Override
    public String pyRepr() {
        StringBuilder sb = new StringBuilder("b'");
        for (char c : latin1.toCharArray()) {
            if (c == '\'' || c == '\\') sb.append('\\').append(c);
            else if (c == '\n') sb.append("\\n");
            else if (c == '\r') sb.append("\\r");
            else if (c == '\t') sb.append("\\t");
            else if (c < 32 || c >= 127) sb.append(String.format("\\x%02x", (int) c & 0xff));
            else sb.append(c);
        }
        return sb.append('\'').toString();
    }

    /** {@code a + b}, as adjacent bytes literals concatenate. */
    public PyBytes concat(PyBytes other) {
        return new PyBytes(latin1 + other.latin1);
    }
}
