package brokkr.world;

import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * What a tool call changed in a world: the paths whose values differ, with before and after. Worlds
 * are persistent values, so an unchanged subtree is usually the same object and is skipped without
 * comparing its contents.
 */
public final class WorldDiff {
    private WorldDiff() {}

    public enum Kind {
        ADDED,
        REMOVED,
        CHANGED
    }

    /** One difference; {@code before} is null when added, {@code after} null when removed. */
    public record Change(String path, Kind kind, Value before, Value after) {
        public String line() {
            return switch (kind) {
                case ADDED -> "+ " + path + " = " + show(after);
                case REMOVED -> "- " + path + " (was " + show(before) + ")";
                case CHANGED -> "~ " + path + ": " + show(before) + " -> " + show(after);
            };
        }
    }

    public static List<Change> diff(Value before, Value after) {
        List<Change> out = new ArrayList<>();
        walk("", before, after, out);
        return List.copyOf(out);
    }

    private static void walk(String path, Value a, Value b, List<Change> out) {
        if (a == b || a.equals(b)) return;
        if (a instanceof PyDict da && b instanceof PyDict db) {
            for (var e : da.entries()) {
                Value other = db.get(e.getKey());
                String p = path + "[" + PyJson.dumps(Value.str(e.getKey())) + "]";
                if (other == null) out.add(new Change(p, Kind.REMOVED, e.getValue(), null));
                else walk(p, e.getValue(), other, out);
            }
            for (var e : db.entries()) {
                if (!da.containsKey(e.getKey())) {
                    out.add(new Change(
                            path + "[" + PyJson.dumps(Value.str(e.getKey())) + "]", Kind.ADDED, null, e.getValue()));
                }
            }
        } else if (a instanceof PyList la && b instanceof PyList lb) {
            int common = Math.min(la.size(), lb.size());
            for (int i = 0; i < common; i++) walk(path + "[" + i + "]", la.get(i), lb.get(i), out);
            for (int i = common; i < la.size(); i++)
                out.add(new Change(path + "[" + i + "]", Kind.REMOVED, la.get(i), null));
            for (int i = common; i < lb.size(); i++)
                out.add(new Change(path + "[" + i + "]", Kind.ADDED, null, lb.get(i)));
        } else {
            out.add(new Change(path.isEmpty() ? "(world)" : path, Kind.CHANGED, a, b));
        }
    }

    public static String show(Value v) {
        String s = PyJson.dumps(v);
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
