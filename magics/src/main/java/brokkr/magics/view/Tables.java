package brokkr.magics.view;

import brokkr.render.Html;
import brokkr.render.table.TableHtml;
import brokkr.render.table.TableMarkdown;
import brokkr.render.table.TableText;
import java.util.List;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Tablesaw tables as people read them: HTML (escaped, every row), Markdown, and the plain aligned
 * text the REPL prints, formatted exactly as the CLI's tables ({@link TableText}, {@link TableHtml}: the
 * table is read as a {@link brokkr.render.table.PlainTable} through {@link TablesawTables}). Doubles show
 * three significant digits, {@code *_ms} columns as durations, numbers right-aligned, long texts wrapped
 * or folded, missing values as {@link #MISSING} (empty in HTML and Markdown texts).
 */
public final class Tables {
    private Tables() {}

    /** Texts longer than this fold (HTML) or wrap (text). */
    public static final int FOLD = TableText.FOLD;
    /** Lines a wrapped text cell takes at most in plain text; the rest is cut with "...". */
    static final int MAX_LINES = TableText.MAX_LINES;

    /** What a table shows for a value that does not exist (a candidate with no scored attempt has no average reward): never 0. */
    public static final String MISSING = TableText.MISSING;

    public static boolean numeric(Column<?> c) {
        return TablesawTables.plain(c).numeric();
    }

    /** The column's name as shown: a duration column's without its {@code _ms}. */
    public static String header(Column<?> c) {
        return TableText.header(TablesawTables.plain(c));
    }

    /** One cell as shown; {@code missing} for a missing value. */
    public static String cell(Column<?> c, int row, String missing) {
        return TableText.cell(TablesawTables.plain(c), row, missing);
    }

    public static String html(Table t) {
        return TableHtml.html(TablesawTables.plain(t));
    }

    /** The table's name (when it has one) over its aligned text. */
    public static String text(Table t) {
        return TableText.text(TablesawTables.plain(t));
    }

    /** Aligned plain text, two spaces between columns ({@link TableText#aligned}). */
    public static String aligned(Table t) {
        return TableText.aligned(TablesawTables.plain(t));
    }

    /** Words onto lines of at most {@code width} (a longer word is cut), at most {@code maxLines}, the last ending "..." when cut. */
    public static List<String> wrap(String s, int width, int maxLines) {
        return TableText.wrap(s, width, maxLines);
    }

    public static String markdown(Table t) {
        return TableMarkdown.markdown(TablesawTables.plain(t));
    }

    public static String esc(String s) {
        return Html.esc(s);
    }
}
