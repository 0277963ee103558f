package brokkr.agent;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.pcollections.PVector;

/**
 * The record of one agent run: every message (opening messages first), the summed usage of the
 * assistant messages, every model-call attempt, why the run stopped, and the infrastructure
 * failure when that is why.
 */
public record Transcript(
        List<Message> messages, Usage usage, List<ModelCall> modelCalls, Stop stop, InfrastructureFailure failure) {
    public Transcript {
        // A persistent history (the agent loop's) is kept as it is; anything else is copied once.
        messages = messages instanceof PVector<Message> p ? p : List.copyOf(messages);
        modelCalls = List.copyOf(modelCalls);
    }

    public enum Stop {
        /** The candidate answered without tool calls. */
        ANSWERED,
        /** The step limit was reached while the candidate was still calling tools. */
        MAX_STEPS,
        /** The candidate's calls reached the cell's budget ({@link brokkr.conversation.SpendLimit}): its last message ends the run. */
        CELL_BUDGET,
        /** The candidate could not produce a message (provider retries exhausted): not scored. */
        INFRASTRUCTURE_FAILURE
    }

    /** The final answer's text ("" when it had none), or null when the run did not end with an answer. */
    public String finalAnswer() {
        if (stop != Stop.ANSWERED) return null;
        Message last = messages.getLast();
        return last.content() == null ? "" : last.content();
    }

    public List<Message.Assistant> assistantMessages() {
        return messages.stream()
                .filter(m -> m instanceof Message.Assistant)
                .map(m -> (Message.Assistant) m)
                .toList();
    }

    /** Every tool call the candidate made, in order. */
    public List<ToolCall> toolCalls() {
        return assistantMessages().stream().flatMap(a -> a.toolCalls().stream()).toList();
    }

    /** The tool messages by the id of the call they answer. */
    public Map<String, Message.Tool> toolResultsById() {
        return messages.stream()
                .filter(m -> m instanceof Message.Tool)
                .map(m -> (Message.Tool) m)
                .collect(Collectors.toMap(Message.Tool::toolCallId, Function.identity(), (a, b) -> a));
    }
}
