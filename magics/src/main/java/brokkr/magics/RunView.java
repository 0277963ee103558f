package brokkr.magics;

import brokkr.agent.Transcript;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;

import java.util.List;

/**
 * {@code %run}: one episode's dialogue (messages, tool calls, results) and its grade, one line per check.
 * @param dialogue   the messages as role and text, tool calls shown as {@code → name(args)}
 * @param stop       why the episode ended
 * @param reward     the episode's reward (the synthetic domains score 1.0 or 0.0)
 * @param source     what the episode produced, for code: the agent {@link Transcript} (synthetic domains)
 *                   or tau2's {@code EpisodeResult}
 */
public record RunView(String domain, String candidate, String taskId, List<Line> dialogue, String stop, List<Check> checks,
                      double reward, String resultLine, Object source) implements Rich {
    public record Check(String name, boolean passed, String detail) {}

    /** One message: who, what, and whether it is an error result. */
    public record Line(String role, String text) {}

    public RunView {
        dialogue = List.copyOf(dialogue);
        checks = List.copyOf(checks);
    }

    /** A run whose record is an agent transcript. */
    public static RunView of(String domain, String candidate, String taskId, Transcript t, List<Check> checks, double reward,
                             String resultLine) {
        List<Line> lines = t.messages().stream().map(m -> new Line(role(m), body(m))).toList();
        return new RunView(domain, candidate, taskId, lines, t.stop().name().toLowerCase(), checks, reward, resultLine, t);
    }

    /** The agent transcript, for runs that have one (null for tau2 episodes: see {@link #source}). */
    public Transcript transcript() { return source instanceof Transcript t ? t : null; }

    public boolean passed() { return checks.stream().allMatch(Check::passed); }

    static String calls(List<ToolCall> calls) {
        StringBuilder sb = new StringBuilder();
        for (ToolCall c : calls) {
            if (!sb.isEmpty()) sb.append("; ");
            sb.append(c.name()).append('(').append(c.rawArguments() != null ? c.rawArguments() : String.valueOf(c.arguments())).append(')');
        }
        return sb.toString();
    }

    static String role(Message m) {
        return switch (m) {
            case Message.System s -> "system";
            case Message.User u -> "user";
            case Message.Assistant a -> "assistant";
            case Message.Tool t -> t.error() ? "tool (error)" : "tool";
        };
    }

    static String body(Message m) {
        String content = m.content() == null ? "" : m.content();
        if (m instanceof Message.Assistant a && a.hasToolCalls()) return withCalls(content, a.toolCalls());
        return content;
    }

    static String withCalls(String content, List<ToolCall> calls) {
        String c = content == null ? "" : content;
        return calls.isEmpty() ? c : (c.isEmpty() ? "" : c + "\n") + "→ " + calls(calls);
    }

    static String clip(String s, int n) { return s.length() <= n ? s : s.substring(0, n - 3) + "..."; }

    @Override public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(domain).append(" task ").append(taskId).append(", candidate ").append(candidate).append(": ")
          .append(resultLine).append('\n');
        sb.append("dialogue (").append(dialogue.size()).append(" messages, stop=").append(stop).append("):\n");
        for (Line l : dialogue) {
            sb.append(String.format("  %-12s %s%n", l.role(), clip(l.text(), 160).replace("\n", "\n               ")));
        }
        sb.append("grade: reward ").append(reward).append('\n');
        for (Check c : checks) sb.append("  ").append(c.passed() ? "PASS " : "FAIL ").append(c.name()).append(": ").append(c.detail()).append('\n');
        return sb.toString().stripTrailing();
    }

    @Override public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("**").append(domain).append("** task `").append(taskId).append("`, candidate `").append(candidate)
          .append("`: ").append(resultLine).append("\n\n| role | content |\n| --- | --- |\n");
        for (Line l : dialogue) {
            sb.append("| ").append(l.role()).append(" | ").append(clip(l.text(), 300).replace("|", "\\|").replace("\n", "<br>")).append(" |\n");
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
        sb.append("<details><summary>dialogue: ").append(dialogue.size()).append(" messages, stop=").append(Tables.esc(stop))
          .append("</summary><table class=\"brokkr-transcript\">");
        for (Line l : dialogue) {
            sb.append("<tr><td><b>").append(Tables.esc(l.role())).append("</b></td><td><pre style=\"white-space:pre-wrap;margin:0\">")
              .append(Tables.esc(clip(l.text(), 2000))).append("</pre></td></tr>");
        }
        sb.append("</table></details><p><b>Grade:</b> reward ").append(reward).append("</p><ul>");
        for (Check c : checks) {
            sb.append("<li>").append(c.passed() ? "✅" : "❌").append(' ').append(Tables.esc(c.name())).append(": ")
              .append(Tables.esc(c.detail())).append("</li>");
        }
        return sb.append("</ul></div>").toString();
    }
}
