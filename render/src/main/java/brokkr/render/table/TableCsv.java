package brokkr.render.table;

import java.util.ArrayList;
import java.util.List;

/**
 * A table for other programs as CSV (RFC 4180): a header row of the columns' own names, fields quoted
 * when they hold a comma, a quote or a line break, missing values empty, numbers unrounded, CRLF line
 * ends. What a person reads is {@link TableText#aligned}.
 */
public final class TableCsv {
    private TableCsv() {}

    public static String csv(PlainTable t) {
        StringBuilder sb = new StringBuilder();
        List<String> head = new ArrayList<>();
        for (PlainTable.Column c : t.columns()) head.add(field(c.name()));
        sb.append(String.join(",", head)).append("\r\n");
        for (int r = 0; r < t.rowCount(); r++) {
            List<String> row = new ArrayList<>();
            for (PlainTable.Column c : t.columns()) row.add(c.isMissing(r) ? "" : field(String.valueOf(c.get(r))));
            sb.append(String.join(",", row)).append("\r\n");
        }
        return sb.toString();
    }

    private static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
