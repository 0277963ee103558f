package brokkr.cli;

import brokkr.command.Command;
import brokkr.python.PyJson;
import brokkr.render.table.PlainTable;
import brokkr.render.table.TableCsv;
import brokkr.render.table.TableJson;
import brokkr.render.table.TableText;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the inspection commands print tables: {@code --format text} (aligned, for a person; the
 * default), {@code csv} or {@code json} (for programs), {@code --limit N} rows per table at most. A
 * command gives its output as sections (a key for JSON, a title for text and CSV, a table) and, for
 * JSON, fields of its own.
 */
final class TableOutput {
    enum Format {
        TEXT,
        CSV,
        JSON
    }

    /** One table of the output: its JSON key, its title (text and CSV headings), the table. */
    record Section(String key, String title, PlainTable table) {}

    private final Format format;
    private final Integer limit;

    private TableOutput(Format format, Integer limit) {
        this.format = format;
        this.limit = limit;
    }

    Format format() {
        return format;
    }

    static final String OPTIONS = "[--format text|csv|json] [--limit N]";

    /** Takes {@code --format F} and {@code --limit N} out of {@code args}; a bad value is a usage error. */
    static TableOutput take(List<String> args) {
        Format format = Format.TEXT;
        Integer limit = null;
        for (int i = 0; i < args.size(); ) {
            String a = args.get(i);
            if (!a.equals("--format") && !a.equals("--limit")) {
                i++;
                continue;
            }
            if (i + 1 >= args.size()) throw new Command.UsageException(a + " needs a value");
            String v = args.get(i + 1);
            args.subList(i, i + 2).clear();
            if (a.equals("--format")) {
                try {
                    format = Format.valueOf(v.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new Command.UsageException("--format takes text, csv or json, not '" + v + "'");
                }
            } else {
                try {
                    limit = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    throw new Command.UsageException("--limit takes a number, not '" + v + "'");
                }
                if (limit < 1) throw new Command.UsageException("--limit must be at least 1");
            }
        }
        return new TableOutput(format, limit);
    }

    /**
     * Prints {@code sections}: text as titled aligned tables (a note under a table cut by the limit),
     * CSV as one table, or several each under a {@code # title} line, JSON as one object holding
     * {@code fields} and each section's rows under its key (a cut table's key {@code KEY_rows}
     * gives its full row count). Text and CSV never print {@code fields}: text callers print their own head.
     */
    void print(PrintStream out, PrintStream err, List<Section> sections, PyDict fields) {
        switch (format) {
            case TEXT -> {
                boolean first = true;
                for (Section s : sections) {
                    if (!first) out.println();
                    first = false;
                    if (s.title() != null) out.println(s.title());
                    out.print(TableText.aligned(cut(s.table())));
                    if (cutOff(s.table()) > 0)
                        out.println("(" + cutOff(s.table()) + " more rows; --limit " + limit + ")");
                }
            }
            case CSV -> {
                boolean headed = sections.size() > 1;
                for (int i = 0; i < sections.size(); i++) {
                    Section s = sections.get(i);
                    if (i > 0) out.print("\r\n");
                    if (headed) out.print("# " + (s.title() == null ? s.key() : s.title()) + "\r\n");
                    out.print(TableCsv.csv(cut(s.table())));
                    if (cutOff(s.table()) > 0)
                        err.println(
                                s.key() + ": " + cutOff(s.table()) + " more rows not printed (--limit " + limit + ")");
                }
            }
            case JSON -> {
                PyDict.Builder b = PyDict.builder();
                for (var e : fields.entries()) b.put(e.getKey(), e.getValue());
                for (Section s : sections) {
                    b.put(s.key(), TableJson.rows(cut(s.table())));
                    if (cutOff(s.table()) > 0)
                        b.put(s.key() + "_rows", s.table().rowCount());
                }
                out.println(json(b.build()));
            }
        }
    }

    static String json(Value v) {
        return PyJson.dumps(v, PyJson.DumpOptions.DEFAULT.withIndent(2).withEnsureAscii(false));
    }

    private PlainTable cut(PlainTable t) {
        return limit == null || t.rowCount() <= limit ? t : t.first(limit);
    }

    private int cutOff(PlainTable t) {
        return limit == null ? 0 : Math.max(0, t.rowCount() - limit);
    }

    static List<Section> sections() {
        return new ArrayList<>();
    }
}
