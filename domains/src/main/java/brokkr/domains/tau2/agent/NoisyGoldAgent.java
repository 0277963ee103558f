package brokkr.domains.tau2.agent;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.orchestrator.Orchestrator;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A scripted agent whose sampling is seeded, for probes and their tests: at each turn it answers as
 * {@link GoldReplayAgent} with probability {@code goldRate}, and otherwise deviates, half the time
 * with the gold tool but its first argument left out (same tool, other arguments) and half the time
 * with a question to the customer (a text reply); where gold answers in text it deviates by stopping.
 * The draw depends only on the seed and the conversation's length, so a turn's answer is a pure
 * function of the seed and the history, whatever thread asks.
 */
public record NoisyGoldAgent(TaskSpec task, double goldRate, long seed) implements Candidate {
    public static final String QUESTION = "Before I do anything, could you confirm your request once more?";

    public NoisyGoldAgent {
        if (!(goldRate >= 0 && goldRate <= 1))
            throw new IllegalArgumentException("goldRate must be within [0, 1], not " + goldRate);
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) {
        Turn gold = new GoldReplayAgent(task).next(history, tools);
        SplittableRandom draw = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + history.size());
        if (draw.nextDouble() < goldRate) return gold;
        Message.Assistant g = gold.message();
        if (!g.hasToolCalls()) return Turn.of(new Message.Assistant("Goodbye. " + Orchestrator.STOP));
        ToolCall c = g.toolCalls().getFirst();
        if (draw.nextBoolean() && !c.arguments().isEmpty()) {
            PyDict fewer = c.arguments().without(c.arguments().keys().iterator().next());
            return Turn.of(new Message.Assistant(
                    null, List.of(new ToolCall(c.id(), c.name(), fewer, PyJson.dumps(fewer), null))));
        }
        return Turn.of(new Message.Assistant(QUESTION));
    }
}
