package brokkr.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/** Renders a Tablesaw table as aligned plain text; doubles with three decimals, missing values as "-". */
final class TextTable {
    private TextTable() {}

    static String render(Table t) {
        int nc = t.columnCount();
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[nc];
        boolean[] numeric = new boolean[nc];
        for (int c = 0; c < nc; c++) {
            head[c] = t.column(c).name();
            numeric[c] = t.column(c).type().name().matches("DOUBLE|INTEGER|LONG");
        }
        rows.add(head);
        for (int r = 0; r < t.rowCount(); r++) {
            String[] row = new String[nc];
            for (int c = 0; c < nc; c++) row[c] = cell(t.column(c), r);
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

    private static String cell(Column<?> col, int r) {
        if (col.isMissing(r)) return "-";
        Object v = col.get(r);
        if (v instanceof Double d) return String.format(Locale.ROOT, "%.3f", d);
        return String.valueOf(v);
    }
}
