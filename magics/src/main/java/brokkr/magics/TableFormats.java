package brokkr.magics;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Tables for other programs: CSV (RFC 4180: a header row, fields quoted when they hold a comma, a
 * quote or a line break, missing values empty) and JSON rows (one object per row, column name to
 * value, missing values null, numbers unrounded). What a person reads is {@link Tables#aligned}.
 */
public final class TableFormats {
    private TableFormats() {}

    public static String csv(Table t) {
        StringBuilder sb = new StringBuilder();
        List<String> head = new ArrayList<>();
        for (Column<?> c : t.columns()) head.add(field(c.name()));
        sb.append(String.join(",", head)).append("\r\n");
        for (int r = 0; r < t.rowCount(); r++) {
            List<String> row = new ArrayList<>();
            for (Column<?> c : t.columns()) row.add(c.isMissing(r) ? "" : field(String.valueOf(c.get(r))));
            sb.append(String.join(",", row)).append("\r\n");
        }
        return sb.toString();
    }

    private static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** The rows as a JSON-able value: a list of objects in column order. */
    public static PyList json(Table t) {
        List<Value> rows = new ArrayList<>(t.rowCount());
        for (int r = 0; r < t.rowCount(); r++) {
            PyDict.Builder b = PyDict.builder();
            for (Column<?> c : t.columns()) b.put(c.name(), c.isMissing(r) ? PyNone.NONE : value(c.get(r)));
            rows.add(b.build());
        }
        return PyList.of(rows);
    }

    private static Value value(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Double || v instanceof Boolean ? Value.of(v) : Value.str(String.valueOf(v));
    }
}
