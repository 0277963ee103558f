package brokkr.magics.view;

import brokkr.render.table.PlainTable;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Tablesaw tables and Brokkr's plain tables ({@link PlainTable}) into each other: the notebook hands
 * people Tablesaw tables (they filter, join and chart them), the renderers of {@code brokkr.render} read
 * plain ones, so a table built by either shows the same everywhere. A missing value stays missing
 * (Tablesaw's missing marker, {@code null} in a plain table).
 */
public final class TablesawTables {
    private TablesawTables() {}

    /** The plain table of {@code t}: its name as the title, each column's kind from its Tablesaw type, values as Tablesaw gives them. */
    public static PlainTable plain(Table t) {
        List<PlainTable.Column> columns = new ArrayList<>(t.columnCount());
        for (Column<?> c : t.columns()) columns.add(plain(c));
        return PlainTable.of(t.name(), columns);
    }

    /** One Tablesaw column as a plain one. */
    public static PlainTable.Column plain(Column<?> c) {
        List<Object> values = new ArrayList<>(c.size());
        for (int r = 0; r < c.size(); r++) values.add(c.isMissing(r) ? null : c.get(r));
        return new PlainTable.Column(c.name(), kind(c), values);
    }

    private static PlainTable.Kind kind(Column<?> c) {
        return switch (c.type().name()) {
            case "INTEGER" -> PlainTable.Kind.INTEGER;
            case "LONG" -> PlainTable.Kind.LONG;
            case "DOUBLE" -> PlainTable.Kind.DOUBLE;
            case "FLOAT", "SHORT" -> PlainTable.Kind.NUMBER;
            default -> PlainTable.Kind.TEXT;
        };
    }

    /** The Tablesaw table of {@code t}: whole numbers as int and long columns, other numbers as doubles, the rest as text. */
    public static Table tablesaw(PlainTable t) {
        List<Column<?>> columns = new ArrayList<>(t.columnCount());
        for (PlainTable.Column c : t.columns()) columns.add(tablesaw(c));
        return Table.create(t.title(), columns.toArray(Column[]::new));
    }

    private static Column<?> tablesaw(PlainTable.Column c) {
        switch (c.kind()) {
            case INTEGER -> {
                IntColumn out = IntColumn.create(c.name());
                for (Object v : c.values())
                    if (v == null) out.appendMissing();
                    else out.append((Integer) v);
                return out;
            }
            case LONG -> {
                LongColumn out = LongColumn.create(c.name());
                for (Object v : c.values())
                    if (v == null) out.appendMissing();
                    else out.append((Long) v);
                return out;
            }
            case DOUBLE, NUMBER -> {
                DoubleColumn out = DoubleColumn.create(c.name());
                for (Object v : c.values())
                    if (v == null) out.appendMissing();
                    else out.append(((Number) v).doubleValue());
                return out;
            }
            default -> {
                StringColumn out = StringColumn.create(c.name());
                for (Object v : c.values())
                    if (v == null) out.appendMissing();
                    else out.append(String.valueOf(v));
                return out;
            }
        }
    }
}
