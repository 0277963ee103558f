package brokkr.magics.view;

/**
 * A value that knows how to show itself: the renderer registry ({@link Rendering}) turns it into
 * {@code text/html}, {@code text/markdown} (when given) and {@code text/plain}; the REPL prints {@link #text()}.
 */
public interface Rich {
    String text();

    String html();
    /** Markdown, or null when the value has none (the text is then the fallback). */
    default String markdown() {
        return null;
    }
}
