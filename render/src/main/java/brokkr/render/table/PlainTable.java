package brokkr.render.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table as plain data: a title (may be null), typed columns of equal length and notes shown under
 * it. A missing value is {@code null}: the builders turn a NaN double and an empty text into
 * {@code null}, so that a cell that has no value reads the same in every format (a dash in text,
 * empty in CSV, {@code null} in JSON). The renderers ({@link TableText}, {@link TableHtml},
 * {@link TableMarkdown}, {@link TableCsv}, {@link TableJson}) need nothing else: a command prints a
 * table without loading a notebook library, and the notebook turns one into its own table type.
 */
public record PlainTable(String title, List<Column> columns, List<String> notes) {
    public PlainTable {
        columns = List.copyOf(columns);
        notes = List.copyOf(notes);
        for (Column c : columns) {
            if (c.values().size() != columns.getFirst().values().size()) {
                throw new IllegalArgumentException("column " + c.name() + " has "
                        + c.values().size() + " rows, " + columns.getFirst().name() + " "
                        + columns.getFirst().values().size());
            }
        }
    }

    /** What a column holds: whole numbers, doubles, other numbers (right-aligned) or anything else shown as its text. */
    public enum Kind {
        TEXT,
        INTEGER,
        LONG,
        DOUBLE,
        NUMBER;

        public boolean numeric() {
            return this != TEXT;
        }
    }

    /** One column; its values are null where missing ({@link java.util.Collections#unmodifiableList} of the builder's, nulls allowed). */
    public record Column(String name, Kind kind, List<Object> values) {
        public Column {
            values = java.util.Collections.unmodifiableList(new ArrayList<>(values));
        }

        public boolean numeric() {
            return kind.numeric();
        }

        public boolean isMissing(int row) {
            return values.get(row) == null;
        }

        public Object get(int row) {
            return values.get(row);
        }

        public int size() {
            return values.size();
        }
    }

    public static PlainTable of(String title, List<Column> columns) {
        return new PlainTable(title, columns, List.of());
    }

    public static PlainTable of(String title, Builder... columns) {
        return of(title, Arrays.stream(columns).map(Builder::build).toList());
    }

    public PlainTable withNotes(List<String> notes) {
        return new PlainTable(title, columns, notes);
    }

    public int rowCount() {
        return columns.isEmpty() ? 0 : columns.getFirst().size();
    }

    public int columnCount() {
        return columns.size();
    }

    public Column column(int i) {
        return columns.get(i);
    }

    public Column column(String name) {
        return columns.stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no column " + name + " in " + title));
    }

    /** The first {@code n} rows (the whole table when it has no more). */
    public PlainTable first(int n) {
        if (rowCount() <= n) return this;
        return new PlainTable(
                title,
                columns.stream()
                        .map(c -> new Column(c.name(), c.kind(), c.values().subList(0, n)))
                        .toList(),
                notes);
    }

    public static Builder text(String name) {
        return new Builder(name, Kind.TEXT);
    }

    public static Builder integers(String name) {
        return new Builder(name, Kind.INTEGER);
    }

    public static Builder longs(String name) {
        return new Builder(name, Kind.LONG);
    }

    public static Builder doubles(String name) {
        return new Builder(name, Kind.DOUBLE);
    }

    /** A column filled one value at a time, as the tables of a scorecard are built row by row. */
    public static final class Builder {
        private final String name;
        private final Kind kind;
        private final List<Object> values = new ArrayList<>();

        Builder(String name, Kind kind) {
            this.name = name;
            this.kind = kind;
        }

        public Builder append(String v) {
            return add(v == null || v.isEmpty() ? null : v);
        }

        /** A whole number; widened as the column holds it (a long or double column takes ints, as Java assigns them). */
        public Builder append(int v) {
            return add(
                    switch (kind) {
                        case LONG -> (Object) (long) v;
                        case DOUBLE -> (Object) (double) v;
                        default -> (Object) v;
                    });
        }

        public Builder append(long v) {
            return add(kind == Kind.DOUBLE ? (Object) (double) v : (Object) v);
        }

        /** NaN is missing: a value that cannot be computed is drawn as a dash, never as 0 or NaN. */
        public Builder append(double v) {
            return add(Double.isNaN(v) ? null : v);
        }

        public Builder appendMissing() {
            return add(null);
        }

        private Builder add(Object v) {
            if (v != null && !fits(v))
                throw new IllegalArgumentException(
                        name + " holds " + kind + ", not " + v.getClass().getSimpleName());
            values.add(v);
            return this;
        }

        private boolean fits(Object v) {
            return switch (kind) {
                case TEXT -> v instanceof String;
                case INTEGER -> v instanceof Integer;
                case LONG -> v instanceof Long;
                case DOUBLE -> v instanceof Double;
                case NUMBER -> v instanceof Number;
            };
        }

        public int size() {
            return values.size();
        }

        public Column build() {
            return new Column(name, kind, values);
        }
    }
}
