package brokkr.kernel;

import brokkr.magics.view.Tables;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * A table as the REPL prints it, fitted to the terminal's width: text left-aligned and numbers right-aligned,
 * two spaces between columns; when the table is wider than the terminal, the widest text columns are
 * narrowed first (their cells cut with {@code …}), then columns that still do not fit are left out and
 * named on a last line. A width of 0 (no terminal) fits nothing.
 */
public final class TerminalTable {
    private TerminalTable() {}

    /** Text columns are never narrowed below this (or their header). */
    static final int MIN_TEXT_WIDTH = 8;

    private static final String SEP = "  ";

    public static String text(Table t, int width) {
        int nc = t.columnCount();
        String[] head = new String[nc];
        boolean[] numeric = new boolean[nc];
        List<String[]> rows = new ArrayList<>();
        for (int c = 0; c < nc; c++) {
            head[c] = t.column(c).name();
            numeric[c] = t.column(c).type().name().matches("DOUBLE|FLOAT|INTEGER|LONG|SHORT");
        }
        for (int r = 0; r < t.rowCount(); r++) {
            String[] row = new String[nc];
            for (int c = 0; c < nc; c++) row[c] = cell(t.column(c), r, numeric[c]);
            rows.add(row);
        }
        int[] w = new int[nc];
        for (int c = 0; c < nc; c++) {
            w[c] = head[c].length();
            for (String[] row : rows) w[c] = Math.max(w[c], row[c].length());
        }
        int shown = nc;
        if (width > 0) {
            // narrow the widest text column, one character at a time, while the table is too wide
            while (total(w, shown) > width) {
                int widest = -1;
                for (int c = 0; c < shown; c++) {
                    if (!numeric[c]
                            && w[c] > Math.max(MIN_TEXT_WIDTH, head[c].length())
                            && (widest < 0 || w[c] > w[widest])) widest = c;
                }
                if (widest < 0) break;
                w[widest]--;
            }
            while (shown > 1 && total(w, shown) > width) shown--;
        }
        StringBuilder sb = new StringBuilder();
        if (t.name() != null && !t.name().isBlank())
            sb.append(clip(t.name(), width > 0 ? width : Integer.MAX_VALUE)).append('\n');
        line(sb, head, w, numeric, shown);
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < shown; c++) rule.append(c == 0 ? "" : SEP).append("-".repeat(w[c]));
        sb.append(rule).append('\n');
        for (String[] row : rows) line(sb, row, w, numeric, shown);
        if (shown < nc) {
            List<String> rest = new ArrayList<>();
            for (int c = shown; c < nc; c++) rest.add(head[c]);
            String note = "(" + (nc - shown) + " more column" + (nc - shown == 1 ? "" : "s")
                    + " than the terminal is wide: " + String.join(", ", rest) + ")";
            sb.append(wrap(note, width)).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    private static int total(int[] w, int shown) {
        int sum = SEP.length() * Math.max(0, shown - 1);
        for (int c = 0; c < shown; c++) sum += w[c];
        return sum;
    }

    private static void line(StringBuilder sb, String[] cells, int[] w, boolean[] numeric, int shown) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < shown; c++) {
            String s = clip(cells[c], w[c]);
            String pad = " ".repeat(w[c] - s.length());
            if (c > 0) l.append(SEP);
            l.append(numeric[c] ? pad + s : s + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    private static String cell(Column<?> col, int r, boolean numeric) {
        if (col.isMissing(r)) return numeric ? Tables.MISSING : "";
        return col.getString(r).replace('\n', ' ').replace('\r', ' ');
    }

    /** Words on lines of at most {@code width} characters (a longer word is cut). */
    static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder(), line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                out.append(line).append('\n');
                line.setLength(0);
            }
            if (!line.isEmpty()) line.append(' ');
            line.append(clip(word, width));
        }
        return out.append(line).toString();
    }

    static String clip(String s, int w) {
        return s.length() <= w ? s : w <= 1 ? s.substring(0, w) : s.substring(0, w - 1) + "…";
    }
}
