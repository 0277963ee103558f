package brokkr.magics.view;

import brokkr.python.PyJson;
import brokkr.render.JsonText;
import brokkr.world.FileDiff;
import brokkr.world.WorldDiff;
import java.util.List;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * {@code %call TOOL {json}}: the tool message's content (JSON indented, folded in HTML when long), its
 * error flag, and what changed in the forked world (values in full: the table folds long ones). In a world that is
 * a file tree (the wiki's workspace) the change is shown as files: each added, changed or removed, with the unified
 * diff of its text ({@code files}, empty for other worlds).
 */
public record CallOutcome(
        String tool,
        String arguments,
        String content,
        boolean error,
        List<WorldDiff.Change> changes,
        List<FileDiff.Change> files)
        implements Rich {
    public CallOutcome {
        changes = List.copyOf(changes);
        files = List.copyOf(files);
    }

    public CallOutcome(String tool, String arguments, String content, boolean error, List<WorldDiff.Change> changes) {
        this(tool, arguments, content, error, changes, List.of());
    }

    /** The file changes as text: a line per file, then each file's unified diff. */
    public String filesText() {
        return filesText(files);
    }

    /** {@code files} as text: {@code files changed (n):}, a line per file, then each file's unified diff. */
    public static String filesText(List<FileDiff.Change> files) {
        StringBuilder sb =
                new StringBuilder("files changed (").append(files.size()).append("):");
        for (FileDiff.Change f : files) sb.append("\n  ").append(f.line());
        for (FileDiff.Change f : files) sb.append("\n").append(f.unified().stripTrailing());
        return sb.toString();
    }

    /** {@code files} as HTML: per file its line, then its unified diff, additions green and removals red. */
    public static String filesHtml(List<FileDiff.Change> files) {
        StringBuilder sb =
                new StringBuilder("<p>files changed (").append(files.size()).append("):</p>");
        for (FileDiff.Change f : files) {
            sb.append("<details open><summary><code>")
                    .append(Tables.esc(f.line()))
                    .append("</code></summary><pre class=\"brokkr-diff\">");
            for (String l : f.unified().split("\n", -1)) {
                String colour = l.startsWith("+++") || l.startsWith("---") || l.startsWith("@@")
                        ? "#555"
                        : l.startsWith("+") ? "#070" : l.startsWith("-") ? "#b00" : null;
                sb.append(colour == null ? "" : "<span style=\"color:" + colour + "\">")
                        .append(Tables.esc(l))
                        .append(colour == null ? "" : "</span>")
                        .append('\n');
            }
            sb.append("</pre></details>");
        }
        return sb.toString();
    }

    public Table diffTable() {
        return Table.create(
                "world diff",
                StringColumn.create(
                        "path", changes.stream().map(WorldDiff.Change::path).toList()),
                StringColumn.create(
                        "change",
                        changes.stream().map(c -> c.kind().name().toLowerCase()).toList()),
                StringColumn.create(
                        "before",
                        changes.stream()
                                .map(c -> c.before() == null ? "" : PyJson.dumps(c.before()))
                                .toList()),
                StringColumn.create(
                        "after",
                        changes.stream()
                                .map(c -> c.after() == null ? "" : PyJson.dumps(c.after()))
                                .toList()));
    }

    @Override
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(tool)
                .append("(")
                .append(arguments)
                .append(")")
                .append(error ? "  [error]" : "")
                .append('\n');
        String json = JsonText.pretty(content);
        sb.append(json != null ? json : content).append('\n');
        if (changes.isEmpty()) sb.append("world unchanged");
        else if (!files.isEmpty()) sb.append(filesText());
        else {
            sb.append("world changes (").append(changes.size()).append("):");
            for (WorldDiff.Change c : changes) sb.append("\n  ").append(c.line());
        }
        return sb.toString();
    }

    @Override
    public String html() {
        StringBuilder sb = new StringBuilder("<div class=\"brokkr-call\">");
        sb.append("<p><code>")
                .append(Tables.esc(tool))
                .append("(")
                .append(Tables.esc(arguments))
                .append(")</code> ")
                .append(error ? "<b style=\"color:#b00\">error</b>" : "<b style=\"color:#070\">ok</b>")
                .append("</p>");
        sb.append(JsonText.html(content));
        if (changes.isEmpty()) sb.append("<p>world unchanged</p>");
        else if (!files.isEmpty()) sb.append(filesHtml(files));
        else
            sb.append("<p>world changes (")
                    .append(changes.size())
                    .append("):</p>")
                    .append(Tables.html(diffTable()));
        return sb.append("</div>").toString();
    }
}
