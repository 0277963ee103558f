package brokkr.magics;

import brokkr.agent.Transcript;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;

import java.util.List;

/**
 * {@code %run}: one episode's transcript (dialogue, tool calls, results) and its grade, one line per check.
 * @param reward 1.0 when every check passed, else 0.0 (the synthetic domains' binary score)
 */
public record RunView(String domain, String candidate, String taskId, Transcript transcript, List<Check> checks,
                      double reward, String resultLine) implements Rich {
    public record Check(String name, boolean passed, String detail) {}

    public RunView { checks = List.copyOf(checks); }

    public boolean passed() { return checks.stream().allMatch(Check::passed); }

    private static String calls(List<ToolCall> calls) {
        StringBuilder sb = new StringBuilder();
        for (ToolCall c : calls) {
            if (!sb.isEmpty()) sb.append("; ");
            sb.append(c.name()).append('(').append(c.rawArguments() != null ? c.rawArguments() : String.valueOf(c.arguments())).append(')');
        }
        return sb.toString();
    }

    private static String role(Message m) {
        return switch (m) {
            case Message.System s -> "system";
            case Message.User u -> "user";
            case Message.Assistant a -> "assistant";
            case Message.Tool t -> t.error() ? "tool (error)" : "tool";
        };
    }

    private static String body(Message m) {
        String content = m.content() == null ? "" : m.content();
        if (m instanceof Message.Assistant a && a.hasToolCalls()) {
            return (content.isEmpty() ? "" : content + "\n") + "→ " + calls(a.toolCalls());
        }
        return content;
    }

    private static String clip(String s, int n) { return s.length() <= n ? s : s.substring(0, n - 3) + "..."; }

    @Override public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(domain).append(" task ").append(taskId).append(", candidate ").append(candidate).append(": ")
          .append(resultLine).append('\n');
        sb.append("transcript (").append(transcript.messages().size()).append(" messages, stop=")
          .append(transcript.stop().name().toLowerCase()).append("):\n");
        for (Message m : transcript.messages()) {
            sb.append(String.format("  %-12s %s%n", role(m), clip(body(m), 160).replace("\n", "\n               ")));
        }
        sb.append("grade: reward ").append(reward).append('\n');
        for (Check c : checks) sb.append("  ").append(c.passed() ? "PASS " : "FAIL ").append(c.name()).append(": ").append(c.detail()).append('\n');
        return sb.toString().stripTrailing();
    }

    @Override public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("**").append(domain).append("** task `").append(taskId).append("`, candidate `").append(candidate)
          .append("`: ").append(resultLine).append("\n\n| role | content |\n| --- | --- |\n");
        for (Message m : transcript.messages()) {
            sb.append("| ").append(role(m)).append(" | ").append(clip(body(m), 300).replace("|", "\\|").replace("\n", "<br>")).append(" |\n");
        }
        sb.append("\n**Grade:** reward ").append(reward).append("\n\n");
        for (Check c : checks) sb.append("- ").append(c.passed() ? "✅ " : "❌ ").append(c.name()).append(": ").append(c.detail()).append('\n');
        return sb.toString();
    }

    @Override public String html() {
        StringBuilder sb = new StringBuilder("<div class=\"brokkr-run\">");
        sb.append("<p><b>").append(Tables.esc(domain)).append("</b> task <code>").append(Tables.esc(taskId))
          .append("</code>, candidate <code>").append(Tables.esc(candidate)).append("</code>: ")
          .append(Tables.esc(resultLine)).append("</p>");
        sb.append("<details><summary>transcript: ").append(transcript.messages().size()).append(" messages, stop=")
          .append(transcript.stop().name().toLowerCase()).append("</summary><table class=\"brokkr-transcript\">");
        for (Message m : transcript.messages()) {
            sb.append("<tr><td><b>").append(role(m)).append("</b></td><td><pre style=\"white-space:pre-wrap;margin:0\">")
              .append(Tables.esc(clip(body(m), 2000))).append("</pre></td></tr>");
        }
        sb.append("</table></details><p><b>Grade:</b> reward ").append(reward).append("</p><ul>");
        for (Check c : checks) {
            sb.append("<li>").append(c.passed() ? "✅" : "❌").append(' ').append(Tables.esc(c.name())).append(": ")
              .append(Tables.esc(c.detail())).append("</li>");
        }
        return sb.append("</ul></div>").toString();
    }
}
