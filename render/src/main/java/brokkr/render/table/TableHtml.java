package brokkr.render.table;

import static brokkr.render.Html.esc;

import brokkr.render.JsonText;
import java.util.List;

/**
 * A table as an HTML {@code <table class="brokkr-table">}: the title as its caption, every row, cells
 * escaped and formatted as {@link TableText#cell}; numbers right-aligned (Jupyter's own table style
 * right-aligns all), missing numbers as {@link TableText#MISSING} and missing texts empty; texts over
 * {@value TableText#FOLD} characters fold under their beginning, and JSON objects and arrays show
 * indented ({@link JsonText}), folded when long. Notes follow the table as a paragraph.
 */
public final class TableHtml {
    private TableHtml() {}

    /**
     * About how many characters of cells fit across a notebook's output area or the report's page (some 1,000
     * pixels): a table wider than that would lose its right-hand columns off the page (issue 31, item 3).
     */
    static final int FIT_CHARACTERS = 160;

    public static String html(PlainTable t) {
        int[] widths = widths(t);
        boolean[] numeric = numeric(t);
        List<List<Integer>> groups = TableText.columnGroups(widths, numeric, FIT_CHARACTERS);
        if (groups.size() == 1) return html(t, groups.getFirst(), t.title(), true);
        // as many groups as needed, of about equal width (never a last group of one or two columns)
        int total = 2 * (widths.length - 1);
        for (int w : widths) total += w;
        for (int width = total / groups.size(); width < FIT_CHARACTERS; width += 4) {
            List<List<Integer>> even = TableText.columnGroups(widths, numeric, width);
            if (even.size() == groups.size()) {
                groups = even;
                break;
            }
        }
        // Too wide for the page: stacked column groups, each repeating the columns that name a row (benchmark,
        // candidate), as the terminal shows it, so every column stays on the page and readable.
        StringBuilder sb = new StringBuilder();
        for (int g = 0; g < groups.size(); g++) {
            String title = t.title() == null || t.title().isBlank() ? null : t.title();
            String caption = g == 0
                    ? title
                    : (title == null ? "" : title + " ") + "(continued, " + (g + 1) + " of " + groups.size() + ")";
            sb.append(html(t, groups.get(g), caption, g == groups.size() - 1));
        }
        return sb.toString();
    }

    /** Each column's widest text, its header's or a cell's (a long text counted as it folds). */
    private static int[] widths(PlainTable t) {
        int[] w = new int[t.columnCount()];
        for (int i = 0; i < w.length; i++) {
            PlainTable.Column c = t.column(i);
            w[i] = TableText.header(c).length();
            for (int r = 0; r < t.rowCount(); r++)
                w[i] = Math.max(
                        w[i],
                        Math.min(
                                TableText.FOLD,
                                TableText.cell(c, r, TableText.MISSING).length()));
        }
        return w;
    }

    private static boolean[] numeric(PlainTable t) {
        boolean[] numeric = new boolean[t.columnCount()];
        for (int i = 0; i < numeric.length; i++) numeric[i] = t.column(i).numeric();
        return numeric;
    }

    private static String html(PlainTable t, List<Integer> columns, String caption, boolean withNotes) {
        StringBuilder sb = new StringBuilder("<table class=\"brokkr-table\">");
        if (caption != null && !caption.isBlank())
            sb.append("<caption>").append(esc(caption)).append("</caption>");
        sb.append("<thead><tr>");
        boolean[] countLike = new boolean[t.columnCount()];
        for (int i : columns) {
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
            for (int i : columns) {
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
        if (withNotes && !t.notes().isEmpty())
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
