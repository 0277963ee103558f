package brokkr.magics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The magics a front end (kernel or REPL) dispatches to: a table of line magics and one of cell
 * magics, each with its {@link MagicInfo}. {@link #standard()} holds the built-ins of {@link StandardMagics}
 * and every {@link MagicExtension} on the class path.
 */
public final class MagicRegistry {
    private record Line(MagicInfo info, LineMagic magic) {}

    private record Cell(MagicInfo info, CellMagic magic) {}

    private final Map<String, Line> lines = new TreeMap<>();
    private final Map<String, Cell> cells = new TreeMap<>();

    public static MagicRegistry standard() {
        MagicRegistry r = new MagicRegistry();
        StandardMagics.install(r);
        ServiceLoader.load(MagicExtension.class).forEach(e -> e.install(r));
        return r;
    }

    public MagicRegistry line(String name, String synopsis, String help, LineMagic magic) {
        lines.put(name, new Line(new MagicInfo(name, false, synopsis, help), magic));
        return this;
    }

    public MagicRegistry cell(String name, String synopsis, String help, CellMagic magic) {
        cells.put(name, new Cell(new MagicInfo(name, true, synopsis, help), magic));
        return this;
    }

    public boolean hasLine(String name) {
        return lines.containsKey(name);
    }

    public boolean hasCell(String name) {
        return cells.containsKey(name);
    }

    public Object evalLine(Session session, String name, String args) throws Exception {
        Line l = lines.get(name);
        if (l == null) throw new MagicUsageException("no line magic %" + name + " (%help lists them)");
        return withUsage(l.info, () -> l.magic.eval(session, MagicArgs.of(args)));
    }

    public Object evalCell(Session session, String name, String args, String body) throws Exception {
        Cell c = cells.get(name);
        if (c == null) throw new MagicUsageException("no cell magic %%" + name + " (%help lists them)");
        return withUsage(c.info, () -> c.magic.eval(session, MagicArgs.of(args), body));
    }

    private interface Body {
        Object run() throws Exception;
    }

    /** A usage error comes back with the magic's synopsis appended, so the user sees how to call it. */
    private static Object withUsage(MagicInfo info, Body body) throws Exception {
        try {
            return body.run();
        } catch (MagicUsageException e) {
            throw new MagicUsageException(info.prefixed() + ": " + e.getMessage() + "\nusage: " + info.synopsis());
        }
    }

    /** Every magic, line magics first, each group by name. */
    public List<MagicInfo> infos() {
        List<MagicInfo> out = new ArrayList<>();
        lines.values().forEach(l -> out.add(l.info));
        cells.values().forEach(c -> out.add(c.info));
        return out;
    }

    /** {@code %help NAME}: a line magic of that name, else a cell magic; a leading % or %% is ignored. */
    public MagicInfo info(String name) {
        String n = name.replaceFirst("^%%?", "");
        boolean cellFirst = name.startsWith("%%");
        Line l = lines.get(n);
        Cell c = cells.get(n);
        if (cellFirst && c != null) return c.info;
        if (l != null) return l.info;
        if (c != null) return c.info;
        throw new MagicUsageException("no magic named '" + name + "' (%help lists them)");
    }
}
