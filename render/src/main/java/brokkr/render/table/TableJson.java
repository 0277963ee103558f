package brokkr.render.table;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/** A table for other programs as JSON rows: one object per row, column name to value, missing values null, numbers unrounded. */
public final class TableJson {
    private TableJson() {}

    /** The rows as a JSON-able value: a list of objects in column order. */
    public static PyList rows(PlainTable t) {
        List<Value> rows = new ArrayList<>(t.rowCount());
        for (int r = 0; r < t.rowCount(); r++) {
            PyDict.Builder b = PyDict.builder();
            for (PlainTable.Column c : t.columns()) b.put(c.name(), c.isMissing(r) ? PyNone.NONE : value(c.get(r)));
            rows.add(b.build());
        }
        return PyList.of(rows);
    }

    private static Value value(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Double || v instanceof Boolean
                ? Value.of(v)
                : Value.str(String.valueOf(v));
    }
}
