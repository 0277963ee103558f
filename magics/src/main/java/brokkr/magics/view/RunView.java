package brokkr.magics.view;

import brokkr.agent.Transcript;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.eval.Attempt;
import brokkr.eval.Evidence;
import brokkr.eval.Exploration;
import brokkr.eval.Transcripts;
import brokkr.render.JsonText;
import brokkr.render.Marks;
import brokkr.render.report.FilesHtml;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code %run}: one episode's dialogue (messages, tool calls, results) and its grade, one line per check,
 * built from the {@link Attempt} the evaluation path returned and the domain's reading of it.
 * @param dialogue   the messages as role and text, tool calls shown as {@code → name(args)}
 * @param stop       why the episode ended (the attempt's termination)
 * @param reward     the episode's reward (the synthetic domains score 1.0 or 0.0)
 * @param resultLine the domain's one-line result, or the error of an attempt that did not complete
 * @param attempt    the attempt itself, for code: its checks, evidence and details
 * @param files      the files the run left that its domain shows (a wiki's pages, {@link Exploration#files}), rendered
 *                   below the grade as the report renders them; null when none
 */
public record RunView(
        String domain,
        String candidate,
        String taskId,
        List<Line> dialogue,
        String stop,
        List<Check> checks,
        double reward,
        String resultLine,
        Attempt attempt,
        Exploration.Files files)
        implements Rich {
    public record Check(String name, boolean passed, String detail) {}

    /** One message: who, what, and whether it is an error result. */
    public record Line(String role, String text) {}

    public RunView {
        dialogue = List.copyOf(dialogue);
        checks = List.copyOf(checks);
    }

    /** A run's view: the attempt's transcript as dialogue, the domain's report (null for an attempt that did not complete). */
    public static RunView of(String domain, String candidate, Attempt a, Exploration.RunReport report) {
        return of(domain, candidate, a, report, null);
    }

    /** As {@link #of(String, String, Attempt, Exploration.RunReport)}, with the files the run left (null: none). */
    public static RunView of(
            String domain, String candidate, Attempt a, Exploration.RunReport report, Exploration.Files files) {
        List<Line> lines =
                messages(a).stream().map(m -> new Line(role(m), body(m))).toList();
        List<Check> checks = report == null
                ? List.of()
                : report.checks().stream()
                        .map(c -> new Check(c.name(), c.passed(), c.detail()))
                        .toList();
        return new RunView(
                domain,
                candidate,
                a.taskId(),
                lines,
                a.evidence().termination(),
                checks,
                a.reward(),
                report == null ? a.error() : report.resultLine(),
                a,
                files);
    }

    /** Each view's ids start apart, so that links between its files stay inside it on a page of many outputs. */
    private static final AtomicLong VIEWS = new AtomicLong();

    private static List<Message> messages(Attempt a) {
        return a.evidence().transcript().isNone()
                ? List.of()
                : Transcripts.fromValue(a.evidence().transcript());
    }

    /**
     * The run as an agent {@link Transcript}, for episodes that were one agent loop (the stop is a
     * {@link Transcript.Stop}); null otherwise (a conversation with a simulated user has two parties).
     */
    public Transcript transcript() {
        Transcript.Stop s = Arrays.stream(Transcript.Stop.values())
                .filter(x -> x.name().equalsIgnoreCase(stop))
                .findFirst()
                .orElse(null);
        if (s == null) return null;
        List<ModelCall> calls = attempt.evidence().modelCalls().stream()
                .filter(c -> c.role().equals(Evidence.AGENT))
                .map(Evidence.RecordedCall::call)
                .toList();
        return new Transcript(messages(attempt), attempt.evidence().agentUsage(), calls, s, null);
    }

    public boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }

    static String calls(List<ToolCall> calls) {
        StringBuilder sb = new StringBuilder();
        for (ToolCall c : calls) {
            if (!sb.isEmpty()) sb.append("; ");
            sb.append(c.name())
                    .append('(')
                    .append(c.rawArguments() != null ? c.rawArguments() : String.valueOf(c.arguments()))
                    .append(')');
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
        return switch (m) {
            case Message.Assistant a -> withCalls(a.content(), a.toolCalls());
            case Message.User u -> withCalls(u.content(), u.toolCalls());
            default -> m.content() == null ? "" : m.content();
        };
    }

    static String withCalls(String content, List<ToolCall> calls) {
        String c = content == null ? "" : content;
        return calls.isEmpty() ? c : (c.isEmpty() ? "" : c + "\n") + "→ " + calls(calls);
    }

    static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 3) + "...";
    }

    /** The few rules the report's style sheet gives its files, for a notebook (which has none of them). */
    private static final String STYLE = "<style>.brokkr-run .md-path{color:#59636e;font-size:12px}"
            + ".brokkr-run .md-file{border-top:1px solid #d8dee4;padding:4px 0}"
            + ".brokkr-run .md-file:target{outline:2px solid #0969da;outline-offset:2px}"
            + ".brokkr-run .md-broken{color:#cf222e;text-decoration:underline wavy}"
            + ".brokkr-run .md-external,.brokkr-run .md-image{color:#59636e;text-decoration:underline dotted}</style>";

    @Override
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(domain)
                .append(" task ")
                .append(taskId)
                .append(", candidate ")
                .append(candidate)
                .append(": ")
                .append(resultLine)
                .append('\n');
        sb.append("dialogue (")
                .append(dialogue.size())
                .append(" messages, stop=")
                .append(stop)
                .append("):\n");
        for (Line l : dialogue) {
            sb.append(
                    String.format("  %-12s %s%n", l.role(), clip(l.text(), 160).replace("\n", "\n               ")));
        }
        sb.append("grade: reward ").append(reward).append('\n');
        for (Check c : checks)
            sb.append("  ")
                    .append(c.passed() ? "PASS " : "FAIL ")
                    .append(c.name())
                    .append(": ")
                    .append(c.detail())
                    .append('\n');
        if (files != null) {
            sb.append(files.title()).append(':');
            for (Exploration.File f : files.made())
                sb.append(' ')
                        .append(f.path())
                        .append(" (")
                        .append(f.text().length())
                        .append(" chars)");
            sb.append('\n');
        }
        return sb.toString().stripTrailing();
    }

    @Override
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("**")
                .append(domain)
                .append("** task `")
                .append(taskId)
                .append("`, candidate `")
                .append(candidate)
                .append("`: ")
                .append(resultLine)
                .append("\n\n| role | content |\n| --- | --- |\n");
        for (Line l : dialogue) {
            sb.append("| ")
                    .append(l.role())
                    .append(" | ")
                    .append(clip(l.text(), 300).replace("|", "\\|").replace("\n", "<br>"))
                    .append(" |\n");
        }
        sb.append("\n**Grade:** reward ").append(reward).append("\n\n");
        for (Check c : checks)
            sb.append("- ")
                    .append(Marks.text(c.passed()))
                    .append(' ')
                    .append(c.name())
                    .append(": ")
                    .append(c.detail())
                    .append('\n');
        return sb.toString();
    }

    @Override
    public String html() {
        StringBuilder sb = new StringBuilder("<div class=\"brokkr-run\">");
        sb.append("<p><b>")
                .append(Tables.esc(domain))
                .append("</b> task <code>")
                .append(Tables.esc(taskId))
                .append("</code>, candidate <code>")
                .append(Tables.esc(candidate))
                .append("</code>: ")
                .append(Tables.esc(resultLine))
                .append("</p>");
        sb.append("<details><summary>dialogue: ")
                .append(dialogue.size())
                .append(" messages, stop=")
                .append(Tables.esc(stop))
                .append("</summary><table class=\"brokkr-transcript\">");
        for (Line l : dialogue) {
            sb.append("<tr><td style=\"text-align:left;vertical-align:top\"><b>")
                    .append(Tables.esc(l.role()))
                    .append("</b></td><td style=\"text-align:left\">")
                    .append(JsonText.html(l.text()))
                    .append("</td></tr>");
        }
        sb.append("</table></details><p><b>Grade:</b> reward ").append(reward).append("</p><ul>");
        for (Check c : checks) {
            sb.append("<li>")
                    .append(Marks.html(c.passed()))
                    .append(' ')
                    .append(Tables.esc(c.name()))
                    .append(": ")
                    .append(Tables.esc(c.detail()))
                    .append("</li>");
        }
        sb.append("</ul>");
        if (files != null) {
            sb.append(STYLE)
                    .append(FilesHtml.standalone("brokkr-run-" + VIEWS.incrementAndGet() + "-", attempt.id(), files));
        }
        return sb.append("</div>").toString();
    }
}
