package brokkr.magics.view;

import brokkr.eval.Exploration;
import java.util.List;

/** {@code %task ID}: the scenario, the gold actions (as calls) and the initial world's hash. */
public record TaskView(
        String domain,
        String id,
        String scenario,
        String rewardBasis,
        List<String> goldActions,
        String initialWorldHash)
        implements Rich {
    public TaskView {
        goldActions = List.copyOf(goldActions);
    }

    /** The detail a domain's exploration gives, under the domain's name. */
    public static TaskView of(String domain, Exploration.TaskDetail t) {
        return new TaskView(domain, t.id(), t.scenario(), t.rewardBasis(), t.goldActions(), t.initialWorldHash());
    }

    @Override
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("task ").append(id).append(" (").append(domain).append(")\n");
        sb.append("scenario:\n  ").append(scenario.replace("\n", "\n  ")).append('\n');
        sb.append("reward basis: ").append(rewardBasis).append('\n');
        sb.append("gold actions (").append(goldActions.size()).append("):\n");
        for (int i = 0; i < goldActions.size(); i++)
            sb.append("  ")
                    .append(i + 1)
                    .append(". ")
                    .append(goldActions.get(i))
                    .append('\n');
        sb.append("initial world hash: ").append(initialWorldHash);
        return sb.toString();
    }

    @Override
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("### Task ").append(id).append(" (").append(domain).append(")\n\n");
        sb.append(scenario).append("\n\n**Reward basis:** ").append(rewardBasis).append("\n\n");
        sb.append("**Gold actions (").append(goldActions.size()).append("):**\n\n");
        for (int i = 0; i < goldActions.size(); i++)
            sb.append(i + 1).append(". `").append(goldActions.get(i)).append("`\n");
        sb.append("\n**Initial world hash:** `").append(initialWorldHash).append('`');
        return sb.toString();
    }

    @Override
    public String html() {
        StringBuilder sb = new StringBuilder("<div class=\"brokkr-task\">");
        sb.append("<h4>Task ")
                .append(Tables.esc(id))
                .append(" (")
                .append(Tables.esc(domain))
                .append(")</h4>");
        sb.append("<p style=\"white-space:pre-wrap\">")
                .append(Tables.esc(scenario))
                .append("</p>");
        sb.append("<p><b>Reward basis:</b> ").append(Tables.esc(rewardBasis)).append("</p>");
        sb.append("<p><b>Gold actions (").append(goldActions.size()).append("):</b></p><ol>");
        for (String a : goldActions)
            sb.append("<li><code>").append(Tables.esc(a)).append("</code></li>");
        sb.append("</ol><p><b>Initial world hash:</b> <code>")
                .append(Tables.esc(initialWorldHash))
                .append("</code></p></div>");
        return sb.toString();
    }
}
