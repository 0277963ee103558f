package brokkr.magics.view;

import java.util.List;

/** {@code %fork [ID]}: the forked world now current for {@code %call}, with its tools and hash. */
public record ForkView(String domain, String taskId, String worldHash, List<String> tools) implements Rich {
    public ForkView {
        tools = List.copyOf(tools);
    }

    private String what() {
        return taskId == null ? "pristine world" : "world of task " + taskId;
    }

    @Override
    public String text() {
        return "forked " + domain + " " + what() + " (hash " + worldHash + ")\ntools: " + String.join(", ", tools);
    }

    @Override
    public String html() {
        return "<p>forked <b>" + Tables.esc(domain) + "</b> " + Tables.esc(what()) + " (hash <code>"
                + Tables.esc(worldHash) + "</code>)<br>tools: " + Tables.esc(String.join(", ", tools)) + "</p>";
    }
}
