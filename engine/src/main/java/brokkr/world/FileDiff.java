package brokkr.world;

import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * What changed between two file trees held as worlds (a map from absolute path to text, e.g. the wiki's workspace):
 * each file added, changed or removed, with its text before and after and the unified diff of the two
 * ({@link TextDiff}). Files are values, so an untouched file is the same object on both sides and is skipped
 * without comparing its text.
 */
public final class FileDiff {
    private FileDiff() {}

    /** Context lines around each change of {@link Change#unified()}. */
    public static final int CONTEXT = 3;

    /** One file's change; {@code before} is null when added, {@code after} null when removed. */
    public record Change(String path, WorldDiff.Kind kind, String before, String after) {
        /** The unified diff of the file: {@code ---}/{@code +++} (with {@code /dev/null} for a side it lacks), then the hunks. */
        public String unified() {
            return "--- " + (before == null ? "/dev/null" : path) + "\n+++ " + (after == null ? "/dev/null" : path)
                    + "\n" + TextDiff.unified(before, after, CONTEXT);
        }

        /** Lines added and removed: {@code +a -r}. */
        public int[] counts() {
            int added = 0, removed = 0;
            for (TextDiff.Line l : TextDiff.lines(before, after)) {
                if (l.op() == TextDiff.Op.ADDED) added++;
                if (l.op() == TextDiff.Op.REMOVED) removed++;
            }
            return new int[] {added, removed};
        }

        /** {@code + /wiki/a.md (added, +3)}, {@code ~ /wiki/a.md (changed, +1 -1)}, {@code - /wiki/a.md (removed, -3)}. */
        public String line() {
            int[] c = counts();
            return switch (kind) {
                case ADDED -> "+ " + path + " (added, +" + c[0] + ")";
                case CHANGED -> "~ " + path + " (changed, +" + c[0] + " -" + c[1] + ")";
                case REMOVED -> "- " + path + " (removed, -" + c[1] + ")";
            };
        }
    }

    /** The files of {@code after} that differ from {@code before}'s, in path order (removals among them). */
    public static List<Change> of(PyDict before, PyDict after) {
        List<Change> out = new ArrayList<>();
        java.util.TreeSet<String> paths = new java.util.TreeSet<>(before.keys());
        paths.addAll(after.keys());
        for (String p : paths) {
            Value a = before.get(p), b = after.get(p);
            if (a == b || (a != null && a.equals(b))) continue;
            WorldDiff.Kind kind =
                    a == null ? WorldDiff.Kind.ADDED : b == null ? WorldDiff.Kind.REMOVED : WorldDiff.Kind.CHANGED;
            out.add(new Change(p, kind, a == null ? null : a.asStr(), b == null ? null : b.asStr()));
        }
        return List.copyOf(out);
    }
}
