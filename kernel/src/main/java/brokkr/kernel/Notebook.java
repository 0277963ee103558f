package brokkr.kernel;

import brokkr.magics.Session;

/**
 * What a cell's Java code reaches without plumbing ({@code import static brokkr.kernel.Notebook.*} is a
 * default import): the session the magics share, {@code display} for showing a value now (in the kernel
 * a {@code display_data}, later replaceable with {@code update}), and running a magic line from code.
 */
public final class Notebook {
    private Notebook() {}

    /**
     * What {@link #display} showed, to {@link #update} it later. A cell ending in {@code display(x)} shows
     * {@code x} once, not this handle (as IPython's {@code display} returns {@code None}).
     */
    public record Displayed(String id) {
        public void update(Object value) {
            Notebook.update(this, value);
        }

        @Override
        public String toString() {
            return id;
        }
    }

    public static Session session() {
        return Session.current();
    }

    /** Shows a value through the renderer registry; returns the handle to replace it with {@link #update}. */
    public static Displayed display(Object value) {
        return new Displayed(Session.current().display().show(value));
    }

    /** Replaces what {@link #display} showed. */
    public static void update(Displayed shown, Object value) {
        update(shown.id(), value);
    }

    /** Replaces what was shown under the display id {@code id}. */
    public static void update(String id, Object value) {
        Session.current().display().update(id, value);
    }

    /** Runs one magic line ({@code "%tasks --split test"}) and returns its result. */
    public static Object magic(String line) throws Exception {
        return Session.current().magic(line);
    }
}
