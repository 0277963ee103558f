package brokkr.magics;

import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

import java.util.ArrayList;
import java.util.List;

/**
 * Tablesaw tables as people read them: HTML (escaped, every row), Markdown, and the plain aligned
 * text the CLI and the REPL print. The data stays as it is (full texts, raw doubles); only the
 * showing is formatted:
 * <ul>
 *   <li>doubles with three significant digits ({@link Numbers#sig3});</li>
 *   <li>a column named {@code *_ms} holds milliseconds: shown as a duration (ms, s, min) under its
 *       name without the suffix;</li>
 *   <li>numbers right-aligned, texts left-aligned (Jupyter's own table style right-aligns all);</li>
 *   <li>long texts wrap; in HTML, texts over {@value #FOLD} characters fold under their beginning and
 *       JSON objects and arrays show indented ({@link JsonText}), folded when long;</li>
 *   <li>missing values empty in HTML and Markdown, {@code -} in text.</li>
 * </ul>
 */
public final class Tables {
    private Tables() {}

    /** Texts longer than this fold (HTML) or wrap (text). */
    static final int FOLD = 100;
    /** Lines a wrapped text cell takes at most in plain text; the rest is cut with "...". */
    static final int MAX_LINES = 4;

    private static final String DURATION_SUFFIX = "_ms";

    /** What a table shows for a value that does not exist (a candidate with no scored attempt has no average reward): never 0. */
    public static final String MISSING = "\u2013";

    public static boolean numeric(Column<?> c) {
        return c.type().name().matches("DOUBLE|FLOAT|INTEGER|LONG|SHORT");
    }

    static boolean duration(Column<?> c) { return numeric(c) && c.name().endsWith(DURATION_SUFFIX); }

    /** The column's name as shown: a duration column's without its {@code _ms}. */
    public static String header(Column<?> c) {
        return duration(c) ? c.name().substring(0, c.name().length() - DURATION_SUFFIX.length()) : c.name();
    }

    /** One cell as shown; {@code missing} for a missing value. */
    public static String cell(Column<?> c, int row, String missing) {
        if (c.isMissing(row)) return missing;
        Object v = c.get(row);
        if (duration(c)) return Numbers.duration(((Number) v).doubleValue());
        if (v instanceof Double d) return Numbers.sig3(d);
        if (v instanceof Float f) return Numbers.sig3(f);
        return String.valueOf(v);
    }

    public static String html(Table t) {
        StringBuilder sb = new StringBuilder("<table class=\"brokkr-table\">");
        if (t.name() != null && !t.name().isBlank()) sb.append("<caption>").append(esc(t.name())).append("</caption>");
        sb.append("<thead><tr>");
        for (Column<?> c : t.columns()) sb.append("<th style=\"text-align:").append(align(c)).append("\">").append(esc(header(c))).append("</th>");
        sb.append("</tr></thead><tbody>");
        for (int r = 0; r < t.rowCount(); r++) {
            sb.append("<tr>");
            for (Column<?> c : t.columns()) sb.append(htmlCell(c, r));
            sb.append("</tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    private static String align(Column<?> c) { return numeric(c) ? "right" : "left"; }

    private static String htmlCell(Column<?> c, int r) {
        String s = cell(c, r, numeric(c) ? MISSING : "");
        if (numeric(c)) return "<td style=\"text-align:right;white-space:nowrap\">" + esc(s) + "</td>";
        String open = "<td style=\"text-align:left;vertical-align:top;max-width:48em\">";
        String json = JsonText.pretty(s);
        if (json != null && s.length() > 40) return open + JsonText.html(s) + "</td>";
        if (s.length() <= FOLD && s.indexOf('\n') < 0) return open + esc(s) + "</td>";
        String head = s.lines().findFirst().orElse("");
        if (head.length() > 80) head = head.substring(0, 77);
        return open + "<details class=\"brokkr-long\"><summary>" + esc(head) + "...</summary><div style=\"white-space:pre-wrap\">"
                + esc(s) + "</div></details></td>";
    }

    /** The table's name (when it has one) over its aligned text. */
    public static String text(Table t) {
        String name = t.name() == null || t.name().isBlank() ? "" : t.name() + "\n";
        return name + aligned(t);
    }

    /**
     * Aligned plain text, two spaces between columns: numbers right-aligned and formatted as
     * {@link #cell}, missing values (Tablesaw's missing string is the empty one) as {@link #MISSING}, texts over
     * {@value #FOLD} characters wrapped onto continuation lines (at most {@value #MAX_LINES}); no
     * trailing blanks.
     */
    public static String aligned(Table t) {
        int nc = t.columnCount();
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[nc];
        boolean[] numeric = new boolean[nc];
        for (int c = 0; c < nc; c++) {
            head[c] = header(t.column(c));
            numeric[c] = numeric(t.column(c));
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
                for (int c = 0; c < nc; c++) row[c] = l < cells.get(c).size() ? cells.get(c).get(l) : "";
                rows.add(row);
            }
        }
        int[] w = new int[nc];
        for (String[] row : rows) for (int c = 0; c < nc; c++) w[c] = Math.max(w[c], row[c].length());
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < nc; c++) {
                if (c > 0) line.append("  ");
                String pad = " ".repeat(w[c] - row[c].length());
                line.append(numeric[c] ? pad + row[c] : row[c] + pad);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /** Words onto lines of at most {@code width} (a longer word is cut), at most {@code maxLines}, the last ending "..." when cut. */
    static List<String> wrap(String s, int width, int maxLines) {
        String one = s.replace('\n', ' ');
        if (one.length() <= width) return List.of(one);
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String word : one.split(" ")) {
            while (word.length() > width) {
                if (!cur.isEmpty()) { lines.add(cur.toString()); cur.setLength(0); }
                lines.add(word.substring(0, width));
                word = word.substring(width);
            }
            if (!cur.isEmpty() && cur.length() + 1 + word.length() > width) { lines.add(cur.toString()); cur.setLength(0); }
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

    public static String markdown(Table t) {
        StringBuilder sb = new StringBuilder("|");
        for (Column<?> c : t.columns()) sb.append(' ').append(md(header(c))).append(" |");
        sb.append("\n|");
        for (Column<?> c : t.columns()) sb.append(numeric(c) ? " ---: |" : " :--- |");
        for (int r = 0; r < t.rowCount(); r++) {
            sb.append("\n|");
            for (Column<?> c : t.columns()) sb.append(' ').append(md(cell(c, r, ""))).append(" |");
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
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String md(String s) { return s == null ? "" : s.replace("|", "\\|").replace("\n", " "); }
}
