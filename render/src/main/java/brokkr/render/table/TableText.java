package brokkr.render.table;

import brokkr.render.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * Tables as people read them in a terminal, and the cell formatting every reading format shares. The
 * data stays as it is (full texts, raw doubles); only the showing is formatted:
 * <ul>
 *   <li>doubles with three significant digits ({@link Numbers#sig3});</li>
 *   <li>a numeric column named {@code *_ms} holds milliseconds: shown as a duration (ms, s, min) under its
 *       name without the suffix;</li>
 *   <li>numbers right-aligned, texts left-aligned, two spaces between columns, no trailing blanks;</li>
 *   <li>texts over {@value #FOLD} characters wrapped onto at most {@value #MAX_LINES} lines;</li>
 *   <li>missing values as {@link #MISSING}.</li>
 * </ul>
 */
public final class TableText {
    private TableText() {}

    /** Texts longer than this fold (HTML) or wrap (text). */
    public static final int FOLD = 100;
    /** Lines a wrapped text cell takes at most in plain text; the rest is cut with "...". */
    public static final int MAX_LINES = 4;

    private static final String DURATION_SUFFIX = "_ms";

    /** What a table shows for a value that does not exist (a candidate with no scored attempt has no average reward): never 0. */
    public static final String MISSING = "\u2013";

    static boolean duration(PlainTable.Column c) {
        return c.numeric() && c.name().endsWith(DURATION_SUFFIX);
    }

    /** The column's name as shown: a duration column's without its {@code _ms}. */
    public static String header(PlainTable.Column c) {
        return duration(c) ? c.name().substring(0, c.name().length() - DURATION_SUFFIX.length()) : c.name();
    }

    /** One cell as shown; {@code missing} for a missing value. */
    public static String cell(PlainTable.Column c, int row, String missing) {
        if (c.isMissing(row)) return missing;
        Object v = c.get(row);
        if (duration(c)) return Numbers.duration(((Number) v).doubleValue());
        if (v instanceof Double d) return Numbers.sig3(d);
        if (v instanceof Float f) return Numbers.sig3(f);
        return String.valueOf(v);
    }

    /** The table's title (when it has one) over its aligned text, then its notes. */
    public static String text(PlainTable t) {
        String name = t.title() == null || t.title().isBlank() ? "" : t.title() + "\n";
        return name + aligned(t) + notes(t);
    }

    private static String notes(PlainTable t) {
        StringBuilder sb = new StringBuilder();
        for (String n : t.notes())
            sb.append("  ").append(n.replace("\n", "\n  ")).append('\n');
        return sb.toString();
    }

    /**
     * Aligned plain text, two spaces between columns: numbers right-aligned and formatted as
     * {@link #cell}, missing values (and empty texts) as {@link #MISSING}, texts over {@value #FOLD}
     * characters wrapped onto continuation lines (at most {@value #MAX_LINES}); no trailing blanks.
     */
    public static String aligned(PlainTable t) {
        return aligned(t, 0);
    }

    /**
     * {@link #aligned(PlainTable)} fitted to {@code width} characters (0: no limit): a table wider than that is
     * shown as stacked column groups, each repeating the leading text columns that name a row (at most
     * {@value #KEY_COLUMNS}: benchmark, candidate), so every column stays whole and readable (a terminal wraps or
     * cuts a longer line).
     */
    public static String aligned(PlainTable t, int width) {
        int nc = t.columnCount();
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[nc];
        boolean[] numeric = new boolean[nc];
        for (int c = 0; c < nc; c++) {
            head[c] = header(t.column(c));
            numeric[c] = t.column(c).numeric();
        }
        rows.add(head);
        for (int r = 0; r < t.rowCount(); r++) {
            List<List<String>> cells = new ArrayList<>();
            int height = 1;
            for (int c = 0; c < nc; c++) {
                String s = cell(t.column(c), r, MISSING);
                if (s.isEmpty()) s = MISSING;
                List<String> lines = numeric[c] ? List.of(s) : wrap(s, FOLD, MAX_LINES);
                cells.add(lines);
                height = Math.max(height, lines.size());
            }
            for (int l = 0; l < height; l++) {
                String[] row = new String[nc];
                for (int c = 0; c < nc; c++)
                    row[c] = l < cells.get(c).size() ? cells.get(c).get(l) : "";
                rows.add(row);
            }
        }
        int[] w = new int[nc];
        for (String[] row : rows) for (int c = 0; c < nc; c++) w[c] = Math.max(w[c], row[c].length());
        StringBuilder sb = new StringBuilder();
        List<List<Integer>> groups = columnGroups(w, numeric, width);
        for (int g = 0; g < groups.size(); g++) {
            if (g > 0) sb.append('\n');
            for (String[] row : rows) {
                StringBuilder line = new StringBuilder();
                for (int c : groups.get(g)) {
                    if (!line.isEmpty()) line.append("  ");
                    String pad = " ".repeat(w[c] - row[c].length());
                    line.append(numeric[c] ? pad + row[c] : row[c] + pad);
                }
                sb.append(line.toString().stripTrailing()).append('\n');
            }
        }
        return sb.toString();
    }

    /** Leading text columns repeated in every group of a table too wide to show in one. */
    static final int KEY_COLUMNS = 2;

    /** The columns of each stacked group: all in one without a limit or when they fit. */
    static List<List<Integer>> columnGroups(int[] w, boolean[] numeric, int width) {
        int nc = w.length;
        List<Integer> all = new ArrayList<>();
        for (int c = 0; c < nc; c++) all.add(c);
        if (width <= 0 || lineWidth(w, all) <= width) return List.of(all);
        List<Integer> keys = new ArrayList<>();
        for (int c = 0; c < nc && c < KEY_COLUMNS && !numeric[c]; c++) keys.add(c);
        if (keys.size() == nc) return List.of(all);
        List<List<Integer>> groups = new ArrayList<>();
        List<Integer> group = new ArrayList<>(keys);
        for (int c = keys.size(); c < nc; c++) {
            group.add(c);
            if (group.size() > keys.size() + 1 && lineWidth(w, group) > width) {
                group.removeLast();
                groups.add(group);
                group = new ArrayList<>(keys);
                group.add(c);
            }
        }
        groups.add(group);
        return groups;
    }

    private static int lineWidth(int[] w, List<Integer> columns) {
        int sum = 2 * Math.max(0, columns.size() - 1);
        for (int c : columns) sum += w[c];
        return sum;
    }

    /** Words onto lines of at most {@code width} (a longer word is cut), at most {@code maxLines}, the last ending "..." when cut. */
    public static List<String> wrap(String s, int width, int maxLines) {
        String one = s.replace('\n', ' ');
        if (one.length() <= width) return List.of(one);
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String word : one.split(" ")) {
            while (word.length() > width) {
                if (!cur.isEmpty()) {
                    lines.add(cur.toString());
                    cur.setLength(0);
                }
                lines.add(word.substring(0, width));
                word = word.substring(width);
            }
            if (!cur.isEmpty() && cur.length() + 1 + word.length() > width) {
                lines.add(cur.toString());
                cur.setLength(0);
            }
            if (!cur.isEmpty()) cur.append(' ');
            cur.append(word);
        }
        if (!cur.isEmpty()) lines.add(cur.toString());
        if (lines.size() <= maxLines) return lines;
        List<String> kept = new ArrayList<>(lines.subList(0, maxLines));
        String last = kept.get(maxLines - 1);
        kept.set(maxLines - 1, (last.length() > width - 3 ? last.substring(0, width - 3) : last) + "...");
        return kept;
    }
}
