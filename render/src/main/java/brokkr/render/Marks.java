package brokkr.render;

/**
 * Pass and fail as a person tells them apart anywhere: a word and a plain glyph (✓ U+2713, ✗ U+2717, in DejaVu
 * Sans and most text fonts), coloured in HTML. Never an emoji (✅/❌): without an emoji font (Debian's headless
 * Chromium, many servers) both draw as the same empty box.
 */
public final class Marks {
    private Marks() {}

    public static final String PASS = "✓ pass";
    public static final String FAIL = "✗ FAIL";

    /** The mark as text: {@code ✓ pass} or {@code ✗ FAIL}. */
    public static String text(boolean passed) {
        return passed ? PASS : FAIL;
    }

    /** The mark as HTML coloured inline (notebook outputs carry no style sheet): green pass, red FAIL. */
    public static String html(boolean passed) {
        return "<span style=\"color:" + (passed ? "#1a7f37" : "#cf222e") + ";font-weight:600\">" + text(passed)
                + "</span>";
    }
}
