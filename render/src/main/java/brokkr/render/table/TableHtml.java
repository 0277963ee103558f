package brokkr.render.table;

import static brokkr.render.Html.esc;

import brokkr.render.JsonText;

/**
 * A table as an HTML {@code <table class="brokkr-table">}: the title as its caption, every row, cells
 * escaped and formatted as {@link TableText#cell}; numbers right-aligned (Jupyter's own table style
 * right-aligns all), missing numbers as {@link TableText#MISSING} and missing texts empty; texts over
 * {@value TableText#FOLD} characters fold under their beginning, and JSON objects and arrays show
 * indented ({@link JsonText}), folded when long. Notes follow the table as a paragraph.
 */
public final class TableHtml {
    private TableHtml() {}

    public static String html(PlainTable t) {
        StringBuilder sb = new StringBuilder("<table class=\"brokkr-table\">");
        if (t.title() != null && !t.title().isBlank())
            sb.append("<caption>").append(esc(t.title())).append("</caption>");
        sb.append("<thead><tr>");
        boolean[] countLike = new boolean[t.columnCount()];
        for (int i = 0; i < t.columnCount(); i++) {
            PlainTable.Column c = t.column(i);
            countLike[i] = countLike(c);
            String header = TableText.header(c);
            sb.append("<th style=\"text-align:")
                    .append(c.numeric() || countLike[i] ? "right" : "left")
                    .append("\">")
                    .append(esc(header))
                    .append("</th>");
        }
        sb.append("</tr></thead><tbody>");
        for (int r = 0; r < t.rowCount(); r++) {
            sb.append("<tr>");
            for (int i = 0; i < t.columnCount(); i++) {
                PlainTable.Column c = t.column(i);
                sb.append(
                        countLike[i]
                                ? "<td style=\"text-align:right;white-space:nowrap\">" + esc(TableText.cell(c, r, ""))
                                        + "</td>"
                                : cell(c, r));
            }
            sb.append("</tr>");
        }
        sb.append("</tbody></table>");
        if (!t.notes().isEmpty())
            sb.append("<p class=\"brokkr-note\">")
                    .append(esc(String.join("\n", t.notes())).replace("\n", "<br>"))
                    .append("</p>");
        return sb.toString();
    }

    /**
     * The scorecards' {@code trials}, a text column of counts ("3", or "3-4" when tasks differ), is shown as numbers
     * are: right-aligned and in the numbers' vertical place, not as a top-aligned text (a task id that looks like a
     * number stays a text).
     */
    static boolean countLike(PlainTable.Column c) {
        if (c.numeric() || !c.name().equals("trials")) return false;
        boolean any = false;
        for (int r = 0; r < c.size(); r++) {
            if (c.isMissing(r)) continue;
            if (!String.valueOf(c.get(r)).matches("\\d+(-\\d+)?")) return false;
            any = true;
        }
        return any;
    }

    private static String cell(PlainTable.Column c, int r) {
        String s = TableText.cell(c, r, c.numeric() ? TableText.MISSING : "");
        if (c.numeric()) return "<td style=\"text-align:right;white-space:nowrap\">" + esc(s) + "</td>";
        // a long unbroken word (a telecom task id names every fault it injects) wraps inside the cell, never past it
        String open = "<td style=\"text-align:left;vertical-align:top;max-width:48em"
                + (s.matches("(?s).*\\S{40,}.*") ? ";overflow-wrap:anywhere;min-width:12em" : "") + "\">";
        String json = JsonText.pretty(s);
        if (json != null && s.length() > 40) return open + JsonText.html(s) + "</td>";
        if (s.length() <= TableText.FOLD && s.indexOf('\n') < 0) return open + esc(s) + "</td>";
        String head = s.lines().findFirst().orElse("");
        if (head.length() > 80) head = head.substring(0, 77);
        return open + "<details class=\"brokkr-long\"><summary>" + esc(head)
                + "...</summary><div style=\"white-space:pre-wrap\">" + esc(s) + "</div></details></td>";
    }
}
