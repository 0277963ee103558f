package brokkr.magics;

import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/** Tablesaw tables as HTML (escaped, every row) and as aligned text (every row, unlike {@code Table.print()}'s cut). */
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
            for (int i = 0; i < t.columnCount(); i++) sb.append("<td>").append(esc(t.column(i).getString(r.getRowNumber()))).append("</td>");
            sb.append("</tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    public static String text(Table t) {
        return t.printAll();
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
