package brokkr.magics.view;

import brokkr.python.PyJson;
import brokkr.render.JsonText;
import brokkr.world.WorldDiff;
import java.util.List;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * {@code %call TOOL {json}}: the tool message's content (JSON indented, folded in HTML when long), its
 * error flag, and what changed in the forked world (values in full: the table folds long ones).
 */
public record CallOutcome(String tool, String arguments, String content, boolean error, List<WorldDiff.Change> changes)
        implements Rich {
    public CallOutcome {
        changes = List.copyOf(changes);
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
        else
            sb.append("<p>world changes (")
                    .append(changes.size())
                    .append("):</p>")
                    .append(Tables.html(diffTable()));
        return sb.append("</div>").toString();
    }
}
