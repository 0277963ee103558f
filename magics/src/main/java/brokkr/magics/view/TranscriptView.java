package brokkr.magics.view;

import brokkr.agent.Transcript;
import brokkr.conversation.Message;
import brokkr.render.JsonText;

/**
 * Any agent {@link Transcript} as the notebooks show it (the renderer registry maps {@code Transcript}
 * here): one row per message, tool calls and errors marked, the stop reason and token usage.
 */
public record TranscriptView(Transcript transcript) implements Rich {
    private String head() {
        return transcript.messages().size() + " messages, stop="
                + transcript.stop().name().toLowerCase() + ", tokens in/out "
                + transcript.usage().inputTokens() + "/" + transcript.usage().outputTokens();
    }

    @Override
    public String text() {
        StringBuilder sb = new StringBuilder("transcript: ").append(head()).append('\n');
        for (Message m : transcript.messages()) {
            sb.append(String.format(
                    "  %-12s %s%n",
                    RunView.role(m), RunView.clip(RunView.body(m), 160).replace("\n", "\n               ")));
        }
        return sb.toString().stripTrailing();
    }

    @Override
    public String markdown() {
        StringBuilder sb =
                new StringBuilder("**Transcript:** ").append(head()).append("\n\n| role | content |\n| --- | --- |\n");
        for (Message m : transcript.messages()) {
            sb.append("| ")
                    .append(RunView.role(m))
                    .append(" | ")
                    .append(RunView.clip(RunView.body(m), 300)
                            .replace("|", "\\|")
                            .replace("\n", "<br>"))
                    .append(" |\n");
        }
        return sb.toString();
    }

    @Override
    public String html() {
        StringBuilder sb = new StringBuilder("<div class=\"brokkr-transcript\"><p><b>Transcript:</b> ")
                .append(Tables.esc(head()))
                .append("</p><table>");
        for (Message m : transcript.messages()) {
            sb.append("<tr><td style=\"text-align:left;vertical-align:top\"><b>")
                    .append(RunView.role(m))
                    .append("</b></td><td style=\"text-align:left\">")
                    .append(JsonText.html(RunView.body(m)))
                    .append("</td></tr>");
        }
        return sb.append("</table></div>").toString();
    }
}
