package brokkr.kernel;

import brokkr.magics.view.Tables;
import brokkr.magics.view.TablesawTables;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableText;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.Table;

/**
 * A table as the REPL prints it, fitted to the terminal's width: text left-aligned and numbers right-aligned and
 * formatted as every text table formats them ({@link TableText#cell}: three significant digits, durations),
 * two spaces between columns. A table of numbers and short names wider than the terminal is shown as stacked
 * column groups ({@link TableText#aligned(PlainTable, int)}: nothing cut); another has its widest text columns
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
        // cells formatted as every other text table shows them (TableText: three significant digits, durations)
        PlainTable plain = TablesawTables.plain(t);
        for (int c = 0; c < nc; c++) {
            head[c] = TableText.header(plain.column(c));
            numeric[c] = plain.column(c).numeric();
        }
        for (int r = 0; r < t.rowCount(); r++) {
            String[] row = new String[nc];
            for (int c = 0; c < nc; c++) row[c] = cell(plain.column(c), r, numeric[c]);
            rows.add(row);
        }
        int[] w = new int[nc];
        for (int c = 0; c < nc; c++) {
            w[c] = head[c].length();
            for (String[] row : rows) w[c] = Math.max(w[c], row[c].length());
        }
        if (width > 0 && total(w, nc) > width && shortTexts(w, numeric)) {
            // numbers and names only (pass^k, a scorecard's tables): stacked column groups, nothing cut or left out
            String title = t.name() == null || t.name().isBlank() ? "" : clip(t.name(), width) + "\n";
            return (title + TableText.aligned(plain, width)).stripTrailing();
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

    /** Text columns no wider than this are names (candidates, benchmarks, metrics): never cut to fit. */
    static final int SHORT_TEXT = 24;

    private static boolean shortTexts(int[] w, boolean[] numeric) {
        for (int c = 0; c < w.length; c++) if (!numeric[c] && w[c] > SHORT_TEXT) return false;
        return true;
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

    private static String cell(PlainTable.Column col, int r, boolean numeric) {
        return TableText.cell(col, r, numeric ? Tables.MISSING : "")
                .replace('\n', ' ')
                .replace('\r', ' ');
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
