package brokkr.agent;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.SpendLimit;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.telemetry.GenAiTrace;
import java.util.ArrayList;
import java.util.List;
import org.pcollections.PVector;
import org.pcollections.TreePVector;

/**
 * The plain tool-calling loop: ask the candidate for the next message; if it calls tools, run all
 * calls of that message as one turn through the executor, append one tool message per call (in
 * call order), and ask again; stop when the candidate answers without tool calls or after
 * {@code maxSteps} candidate messages, or at the candidate message whose call reaches {@code budget} (the cell's,
 * {@link SpendLimit}; that message's tool calls are not run).
 *
 * <p>The loop never crashes on what a candidate sends: a call whose arguments were not a JSON
 * object is answered with an error tool message without reaching the executor, and an executor that
 * throws or answers the wrong calls yields error tool messages. Only the candidate's own failures
 * end the run early: an {@link InfrastructureFailure} is recorded in the transcript.
 */
public record AgentLoop(int maxSteps, SpendLimit budget) {
    public AgentLoop {
        if (maxSteps < 1) throw new IllegalArgumentException("maxSteps must be at least 1, got " + maxSteps);
        budget = budget == null ? SpendLimit.NONE : budget;
    }

    /** A loop without a cell budget. */
    public AgentLoop(int maxSteps) {
        this(maxSteps, SpendLimit.NONE);
    }

    public Transcript run(Candidate candidate, List<Message> opening, List<ToolSpec> tools, ToolExecutor executor) {
        // The history is persistent: each step hands the candidate an immutable list that shares all but
        // the newest messages with the previous one, so a run of n steps costs O(n log n), not the
        // O(n^2) of copying the whole conversation for every call. Usage and model calls are summed
        // as they come.
        // The unit's trace (the runner's invoke_agent span is the parent): OFF outside a traced run, so the
        // turns below then make no span. The candidate's chat spans are the recorder's, around every role.
        GenAiTrace trace = GenAiTrace.current();
        PVector<Message> history = TreePVector.from(opening);
        List<ModelCall> modelCalls = new ArrayList<>();
        Usage usage = Usage.ZERO;
        for (int step = 0; step < maxSteps; step++) {
            Turn turn;
            try {
                turn = candidate.next(history, tools);
            } catch (InfrastructureFailure f) {
                modelCalls.addAll(f.attempts());
                return new Transcript(history, usage, modelCalls, Transcript.Stop.INFRASTRUCTURE_FAILURE, f);
            }
            modelCalls.addAll(turn.calls());
            Message.Assistant reply = turn.message();
            usage = usage.plus(reply.usage() == null ? Usage.ZERO : reply.usage());
            history = history.plus(reply);
            if (!reply.hasToolCalls()) {
                return new Transcript(history, usage, modelCalls, Transcript.Stop.ANSWERED, null);
            }
            if (budget.reached()) return new Transcript(history, usage, modelCalls, Transcript.Stop.CELL_BUDGET, null);
            history = history.plusAll(executeTurn(reply.toolCalls(), executor, trace));
        }
        return new Transcript(history, usage, modelCalls, Transcript.Stop.MAX_STEPS, null);
    }

    /** One tool message per call, in call order, whatever the calls and the executor do. */
    static List<Message.Tool> executeTurn(List<ToolCall> calls, ToolExecutor executor, GenAiTrace trace) {
        GenAiTrace.ToolSpans spans = trace.tools(calls);
        String thrown = null;
        List<ToolCall> wellFormed = calls.stream().filter(c -> !c.isMalformed()).toList();
        Message.Tool[] answers = new Message.Tool[wellFormed.size()];
        if (!wellFormed.isEmpty()) {
            try {
                List<Message.Tool> results = executor.execute(wellFormed);
                // Matched by position, not id: models reuse or omit ids; position is what executors promise.
                if (results != null && results.size() == wellFormed.size()) results.toArray(answers);
            } catch (RuntimeException e) {
                thrown = e.getClass().getName();
                for (int i = 0; i < wellFormed.size(); i++) {
                    ToolCall c = wellFormed.get(i);
                    answers[i] = new Message.Tool(
                            c.id(),
                            c.name(),
                            "Error: tool execution failed: " + e.getClass().getSimpleName() + ": " + e.getMessage(),
                            true);
                }
            }
        }
        List<Message.Tool> out = new ArrayList<>(calls.size());
        int w = 0;
        for (int i = 0; i < calls.size(); i++) {
            ToolCall c = calls.get(i);
            if (c.isMalformed()) {
                Message.Tool m = new Message.Tool(
                        c.id(), c.name(), "Error: malformed tool call arguments: " + c.malformed(), true);
                out.add(m);
                spans.end(i, m.content(), GenAiTrace.ToolSpans.MALFORMED_ARGUMENTS);
                continue;
            }
            Message.Tool answer = answers[w++];
            Message.Tool m = answer != null
                    ? answer
                    : new Message.Tool(c.id(), c.name(), "Error: the tool executor gave no result for this call", true);
            out.add(m);
            spans.end(
                    i,
                    m.content(),
                    thrown != null
                            ? thrown
                            : answer == null
                                    ? GenAiTrace.ToolSpans.NO_RESULT
                                    : answer.error() ? GenAiTrace.ToolSpans.TOOL_ERROR : null);
        }
        return out;
    }
}
