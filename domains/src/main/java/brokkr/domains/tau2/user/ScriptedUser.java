package brokkr.domains.tau2.user;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.agent.GoldReplayAgent;
import brokkr.domains.tau2.agent.GoldScript;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import java.util.List;

/**
 * A scripted customer (it sees the flipped history, like upstream's user simulator): it opens with the
 * task's request text, performs the task's gold user actions as tool calls (one per turn, a block at a
 * time, when the gold agent asks for them with {@link GoldReplayAgent#USER_ACTIONS_REQUEST}) and says
 * "Done." after each block, answers {@link Orchestrator#STOP} once the agent's text contains it, and
 * otherwise says thanks.
 */
public record ScriptedUser(TaskSpec task) implements Candidate {
    public static final String DONE = "Done.";
    public static final String THANKS = "Thank you.";

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        int own = 0, userCalls = 0;
        for (Message m : history) {
            if (m instanceof Message.Assistant a) {
                own++;
                userCalls += a.toolCalls().size();
            }
        }
        if (own == 0) return say(opening(task));
        GoldScript script = GoldScript.of(
                task.criteria() == null ? List.of() : task.criteria().actionsOrEmpty());
        Message last = history.get(history.size() - 1);
        if (last instanceof Message.Tool) {
            // Mid-block: the next user action; at the end of a block: report back to the agent.
            for (GoldScript.Segment s : script.segments()) {
                if (s instanceof GoldScript.UserBlock b
                        && userCalls > b.first()
                        && userCalls < b.first() + b.actions().size()) {
                    return callNext(script, userCalls);
                }
            }
            return say(DONE);
        }
        String text = last.content() == null ? "" : last.content();
        if (text.contains(Orchestrator.STOP)) return say(Orchestrator.STOP);
        if (text.startsWith(GoldReplayAgent.USER_ACTIONS_REQUEST)
                && userCalls < script.userActions().size()) {
            return callNext(script, userCalls);
        }
        return say(THANKS);
    }

    /** The user's stop tokens, which end an episode wherever the user says them. */
    private static final List<String> STOP_TOKENS =
            List.of(Orchestrator.STOP, Orchestrator.TRANSFER, Orchestrator.OUT_OF_SCOPE);

    /**
     * The task's request text, unless it contains a stop token (banking_knowledge instructions tell the
     * simulated user when to say {@code ###STOP###}): then the greeting upstream's oracle user opens with.
     */
    static String opening(TaskSpec task) {
        String text = task.requestText();
        for (String t : STOP_TOKENS) if (text.contains(t)) return "Hi, I need some help with my account please.";
        return text;
    }

    private static Turn callNext(GoldScript script, int index) {
        return Turn.of(new Message.Assistant(
                null,
                List.of(GoldReplayAgent.call(
                        "gold-user-" + index, script.userActions().get(index)))));
    }

    private static Turn say(String text) {
        return Turn.of(new Message.Assistant(text));
    }
}
