package brokkr.magics.view;

import brokkr.world.FileDiff;
import brokkr.world.WorldDiff;
import java.util.List;

/**
 * {@code %diff}: the current fork against its parent, the world {@code %fork} made, after the calls since: what they
 * changed in all, as files with their unified diffs where the world is a file tree (the wiki's workspace), else
 * structurally.
 */
public record ForkDiff(
        String domain, String taskId, int calls, List<WorldDiff.Change> changes, List<FileDiff.Change> files)
        implements Rich {
    public ForkDiff {
        changes = List.copyOf(changes);
        files = List.copyOf(files);
    }

    private String head() {
        return "fork of " + domain + " " + (taskId == null ? "pristine world" : "world of task " + taskId) + " after "
                + calls + " call" + (calls == 1 ? "" : "s") + ": ";
    }

    @Override
    public String text() {
        if (changes.isEmpty()) return head() + "unchanged";
        if (!files.isEmpty()) return head() + CallOutcome.filesText(files);
        StringBuilder sb = new StringBuilder(head())
                .append("world changes (")
                .append(changes.size())
                .append("):");
        for (WorldDiff.Change c : changes) sb.append("\n  ").append(c.line());
        return sb.toString();
    }

    @Override
    public String html() {
        StringBuilder sb = new StringBuilder("<div class=\"brokkr-diff\"><p>").append(Tables.esc(head()));
        if (changes.isEmpty()) return sb.append("unchanged</p></div>").toString();
        sb.append("</p>");
        if (!files.isEmpty()) sb.append(CallOutcome.filesHtml(files));
        else {
            sb.append("<ul>");
            for (WorldDiff.Change c : changes)
                sb.append("<li><code>").append(Tables.esc(c.line())).append("</code></li>");
            sb.append("</ul>");
        }
        return sb.append("</div>").toString();
    }
}
