package brokkr.render.table;

/** A table as a Markdown pipe table: numbers right-aligned, cells as {@link TableText#cell}, missing values empty, notes not shown. */
public final class TableMarkdown {
    private TableMarkdown() {}

    public static String markdown(PlainTable t) {
        StringBuilder sb = new StringBuilder("|");
        for (PlainTable.Column c : t.columns())
            sb.append(' ').append(md(TableText.header(c))).append(" |");
        sb.append("\n|");
        for (PlainTable.Column c : t.columns()) sb.append(c.numeric() ? " ---: |" : " :--- |");
        for (int r = 0; r < t.rowCount(); r++) {
            sb.append("\n|");
            for (PlainTable.Column c : t.columns())
                sb.append(' ').append(md(TableText.cell(c, r, ""))).append(" |");
        }
        return sb.toString();
    }

    private static String md(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }
}
