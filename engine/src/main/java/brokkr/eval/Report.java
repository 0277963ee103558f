package brokkr.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A benchmark's own report over one candidate's attempts, beside the scorecard every benchmark gets:
 * what its upstream leaderboard reports (BFCL: accuracy per category, the live overall and
 * irrelevance aggregates). Plain data, drawn where it is shown (the CLI's text, CSV and JSON, the
 * notebook's tables): a table whose cells are {@code String}, {@code Integer}, {@code Long},
 * {@code Double} or null (a value that does not exist), and named figures whose value is null when
 * it cannot be computed (e.g. a category of an aggregate was not run).
 *
 * @param title   what the table is, e.g. {@code per category}
 * @param notes   what a reader needs to read it right (how an aggregate is weighted, what a column counts)
 */
public record Report(
        String title, List<String> columns, List<List<Object>> rows, List<Figure> figures, List<String> notes) {
    /** A named number of the report; null when it cannot be computed. */
    public record Figure(String name, Double value) {
        public Figure {
            Objects.requireNonNull(name, "name");
        }
    }

    /** One cell's outcome as a report reads it: the task's definition and the attempt that decided the cell. */
    public record Outcome(EnvironmentDef environment, Attempt attempt) {
        public Outcome {
            Objects.requireNonNull(environment, "environment");
            Objects.requireNonNull(attempt, "attempt");
            if (!environment.id().equals(attempt.environmentId())) {
                throw new IllegalArgumentException(
                        "attempt " + attempt.id() + " is not of environment " + environment.taskId());
            }
        }
    }

    public Report {
        Objects.requireNonNull(title, "title");
        columns = List.copyOf(columns);
        List<List<Object>> rs = new ArrayList<>(rows.size());
        for (List<Object> r : rows) {
            if (r.size() != columns.size())
                throw new IllegalArgumentException(
                        "a row of " + r.size() + " cells under " + columns.size() + " columns");
            for (Object v : r) {
                if (v != null
                        && !(v instanceof String || v instanceof Integer || v instanceof Long || v instanceof Double)) {
                    throw new IllegalArgumentException("a report cell is text, a whole number, a double or null, not "
                            + v.getClass().getSimpleName());
                }
            }
            // Nulls are values here (missing), which List.copyOf refuses.
            rs.add(Collections.unmodifiableList(new ArrayList<>(r)));
        }
        rows = Collections.unmodifiableList(rs);
        figures = List.copyOf(figures);
        notes = List.copyOf(notes);
    }
}
