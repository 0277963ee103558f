package brokkr.magics.view;

/**
 * A value that knows how to show itself: the renderer registry ({@link Rendering}) turns it into
 * {@code text/html}, {@code text/markdown} (when given) and {@code text/plain}; the REPL prints {@link #text(int)} at its terminal's width.
 */
public interface Rich {
    String text();

    /** The text fitted to a terminal {@code width} characters wide (0: no limit); the plain text unless a value has wide tables. */
    default String text(int width) {
        return text();
    }

    String html();
    /** Markdown, or null when the value has none (the text is then the fallback). */
    default String markdown() {
        return null;
    }
}
