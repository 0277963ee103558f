package brokkr.domains.tau2.agent;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import java.util.List;

/** A scripted agent that answers the customer's first message with {@link Orchestrator#STOP} and does nothing else. */
public record StopAtOnceAgent() implements Candidate {
    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        return Turn.of(new Message.Assistant(Orchestrator.STOP));
    }
}
