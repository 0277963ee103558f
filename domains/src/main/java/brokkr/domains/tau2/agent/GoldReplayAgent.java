package brokkr.domains.tau2.agent;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.model.GoldAction;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.python.PyJson;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A scripted agent that replays the task's gold assistant actions as tool calls, one per turn, in gold
 * order. Where the gold order has user actions, it asks the user to perform them (a text starting with
 * {@link #USER_ACTIONS_REQUEST}) and waits for the user's answer. After the last action it states every
 * {@code communicate_info} string in one message (when the task has any), then closes with
 * {@link Orchestrator#STOP}. It derives its position from the history alone, so it is a pure function
 * of the conversation like any candidate.
 */
public record GoldReplayAgent(TaskSpec task) implements Candidate {
    public static final String USER_ACTIONS_REQUEST = "Please perform these actions on your side:";
    public static final String COMMUNICATE_PREFIX = "Here is the information for you:";
    public static final String CLOSING = "Thank you for contacting us. Goodbye! " + Orchestrator.STOP;

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        int toolTurns = 0, answeredRequests = 0;
        boolean communicated = false;
        for (int i = 0; i < history.size(); i++) {
            if (!(history.get(i) instanceof Message.Assistant a)) continue;
            if (a.hasToolCalls()) toolTurns++;
            String c = a.content();
            if (c != null && c.startsWith(USER_ACTIONS_REQUEST) && answeredLater(history, i)) answeredRequests++;
            if (c != null && c.startsWith(COMMUNICATE_PREFIX)) communicated = true;
        }
        GoldScript script = GoldScript.of(
                task.criteria() == null ? List.of() : task.criteria().actionsOrEmpty());
        for (GoldScript.Segment s : script.segments()) {
            switch (s) {
                case GoldScript.AgentStep step -> {
                    if (toolTurns > 0) {
                        toolTurns--;
                        continue;
                    }
                    return Turn.of(new Message.Assistant(null, List.of(call("gold-" + step.index(), step.action()))));
                }
                case GoldScript.UserBlock block -> {
                    if (answeredRequests > 0) {
                        answeredRequests--;
                        continue;
                    }
                    return Turn.of(new Message.Assistant(USER_ACTIONS_REQUEST + " "
                            + block.actions().stream().map(GoldAction::name).collect(Collectors.joining(", "))));
                }
            }
        }
        List<String> infos = task.criteria() == null || task.criteria().communicateInfo() == null
                ? List.of()
                : task.criteria().communicateInfo();
        if (!infos.isEmpty() && !communicated) {
            return Turn.of(new Message.Assistant(COMMUNICATE_PREFIX + " " + String.join("; ", infos) + "."));
        }
        return Turn.of(new Message.Assistant(CLOSING));
    }

    private static boolean answeredLater(List<Message> history, int i) {
        for (int j = i + 1; j < history.size(); j++) if (history.get(j) instanceof Message.User) return true;
        return false;
    }

    public static ToolCall call(String id, GoldAction a) {
        return new ToolCall(id, a.name(), a.arguments(), PyJson.dumps(a.arguments()), null);
    }
}
