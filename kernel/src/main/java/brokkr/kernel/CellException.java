package brokkr.kernel;

import java.util.List;

/**
 * A cell that failed, already worded for the user: {@code ename}/{@code evalue} as Jupyter shows them
 * (for a Java exception its class and message) and the traceback lines, kernel frames removed.
 */
public final class CellException extends RuntimeException {
    public enum Kind {
        COMPILE,
        RUNTIME,
        INTERRUPTED,
        USAGE
    }

    private final Kind kind;
    private final String ename;
    private final List<String> traceback;

    public CellException(Kind kind, String ename, String evalue, List<String> traceback) {
        super(evalue, null, false, false);
        this.kind = kind;
        this.ename = ename;
        this.traceback = List.copyOf(traceback);
    }

    /**
     * What a front end prints: the traceback when it already starts with the exception line (Java
     * exceptions), the message alone for usage errors, else {@code ename: evalue} and the traceback.
     */
    public static List<String> lines(CellException e) {
        if (e.kind == Kind.USAGE) return e.getMessage().lines().toList();
        String head = e.getMessage() == null || e.getMessage().isEmpty() ? e.ename : e.ename + ": " + e.getMessage();
        if (!e.traceback.isEmpty() && e.traceback.getFirst().equals(head)) return e.traceback;
        if (e.traceback.size() == 1 && e.traceback.getFirst().equals(e.getMessage())) return List.of(head);
        List<String> out = new java.util.ArrayList<>();
        out.add(head);
        out.addAll(e.traceback);
        return out;
    }

    public Kind kind() {
        return kind;
    }

    public String ename() {
        return ename;
    }

    public String evalue() {
        return getMessage();
    }

    public List<String> traceback() {
        return traceback;
    }
}
