package brokkr.kernel;

import brokkr.magics.Session;

/**
 * What a cell's Java code reaches without plumbing ({@code import static brokkr.kernel.Notebook.*} is a
 * default import): the session the magics share, {@code display} for showing a value now (in the kernel
 * a {@code display_data}, later replaceable with {@code update}), and running a magic line from code.
 */
public final class Notebook {
    private Notebook() {}

    public static Session session() { return Session.current(); }

    /** Shows a value through the renderer registry; returns the display id. */
    public static String display(Object value) { return Session.current().display().show(value); }

    /** Replaces what {@link #display} showed under {@code id}. */
    public static void update(String id, Object value) { Session.current().display().update(id, value); }

    /** Runs one magic line ({@code "%tasks --split test"}) and returns its result. */
    public static Object magic(String line) throws Exception { return Session.current().magic(line); }
}
