package brokkr.magics;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Tablesaw tables as HTML (escaped, every row), as Tablesaw's boxed text (every row, unlike
 * {@code Table.print()}'s cut), as Markdown, and as the plain aligned text the CLI prints.
 */
public final class Tables {
    private Tables() {}

    public static String html(Table t) {
        StringBuilder sb = new StringBuilder("<table class=\"brokkr-table\">");
        if (t.name() != null && !t.name().isBlank()) sb.append("<caption>").append(esc(t.name())).append("</caption>");
        sb.append("<thead><tr>");
        for (Column<?> c : t.columns()) sb.append("<th>").append(esc(c.name())).append("</th>");
        sb.append("</tr></thead><tbody>");
        for (Row r : t) {
            sb.append("<tr>");
            for (int i = 0; i < t.columnCount(); i++) sb.append("<td>").append(esc(htmlCell(t.column(i), r.getRowNumber()))).append("</td>");
            sb.append("</tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    /** What a table shows for a value that does not exist (a candidate with no scored attempt has no average reward). */
    public static final String MISSING = "\u2013";

    /** A missing number is {@link #MISSING}; a missing text (Tablesaw's missing string is the empty one) stays empty. */
    private static String htmlCell(Column<?> col, int r) {
        return col.isMissing(r) && isNumeric(col) ? MISSING : col.getString(r);
    }

    private static boolean isNumeric(Column<?> col) { return col.type().name().matches("DOUBLE|INTEGER|LONG"); }

    public static String text(Table t) {
        return t.printAll();
    }

    /**
     * Aligned plain text, two spaces between columns: numbers right-aligned, doubles with three
     * decimals, missing values (Tablesaw's missing string is the empty one) as {@link #MISSING}; no
     * trailing blanks.
     */
    public static String aligned(Table t) {
        int nc = t.columnCount();
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[nc];
        boolean[] numeric = new boolean[nc];
        for (int c = 0; c < nc; c++) {
            head[c] = t.column(c).name();
            numeric[c] = isNumeric(t.column(c));
        }
        rows.add(head);
        for (int r = 0; r < t.rowCount(); r++) {
            String[] row = new String[nc];
            for (int c = 0; c < nc; c++) row[c] = alignedCell(t.column(c), r);
            rows.add(row);
        }
        int[] w = new int[nc];
        for (String[] row : rows) for (int c = 0; c < nc; c++) w[c] = Math.max(w[c], row[c].length());
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            for (int c = 0; c < nc; c++) {
                if (c > 0) sb.append("  ");
                String pad = " ".repeat(w[c] - row[c].length());
                sb.append(numeric[c] ? pad + row[c] : row[c] + (c == nc - 1 ? "" : pad));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String alignedCell(Column<?> col, int r) {
        if (col.isMissing(r)) return MISSING;
        Object v = col.get(r);
        if (v instanceof Double d) return String.format(Locale.ROOT, "%.3f", d);
        return String.valueOf(v);
    }

    public static String markdown(Table t) {
        StringBuilder sb = new StringBuilder("|");
        for (Column<?> c : t.columns()) sb.append(' ').append(md(c.name())).append(" |");
        sb.append("\n|");
        sb.append(" --- |".repeat(t.columnCount()));
        for (int r = 0; r < t.rowCount(); r++) {
            sb.append("\n|");
            for (int i = 0; i < t.columnCount(); i++) sb.append(' ').append(md(t.column(i).getString(r))).append(" |");
        }
        return sb.toString();
    }

    public static String esc(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String md(String s) { return s == null ? "" : s.replace("|", "\\|").replace("\n", " "); }
}
