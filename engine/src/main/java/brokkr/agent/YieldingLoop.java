package brokkr.agent;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Brokkr's agent loop as the agent of a step-driven protocol (tau2's half-duplex orchestrator, which
 * asks its agent for one message at a time). One working conversation per episode lives on the loop's
 * own thread: on each new message from the counterpart it runs an {@link AgentLoop} over several model
 * steps; every call it makes on the protocol's side (through {@link ProtocolCalls}) is handed to the
 * protocol as an assistant message with those tool calls, and the protocol's tool results come back
 * as their answers; the loop's final answer is the protocol's next agent message. So the protocol
 * sees, records and grades every call as its own, while the loop may batch calls (JSON tools) or run
 * code that makes them (a REPL).
 *
 * <p>Each message handed to the protocol carries the model calls and usage made since the previous
 * one, so the protocol's accounting of the agent is complete. A customer turn that takes more than
 * {@code maxTurnSteps} model steps ends with an empty answer (the protocol's agent error).
 */
public final class YieldingLoop implements Candidate, AutoCloseable {

    /** How the loop acts: its tools and how their calls are answered, given a way to make protocol calls. */
    public interface Actions {
        /** The tools the model is offered (the protocol's own, or e.g. one {@code java_eval}). */
        List<ToolSpec> tools(List<ToolSpec> protocolTools);

        /** Answers one turn of the model's tool calls; {@code protocol} runs calls on the protocol's side. */
        List<Message.Tool> execute(List<ToolCall> calls, Message.Assistant message, ProtocolCalls protocol);

        /** Releases what the actions hold (a sandbox JVM). */
        default void close() {}

        /** Every call forwarded as it is: the protocol's JSON tools. */
        Actions PROTOCOL_TOOLS = new Actions() {
            @Override
            public List<ToolSpec> tools(List<ToolSpec> protocolTools) {
                return protocolTools;
            }

            @Override
            public List<Message.Tool> execute(List<ToolCall> calls, Message.Assistant message, ProtocolCalls protocol) {
                return protocol.call(new Message.Assistant(message.content(), calls));
            }
        };
    }

    /** Runs calls on the protocol's side (blocking until it answered them, in call order). */
    @FunctionalInterface
    public interface ProtocolCalls {
        List<Message.Tool> call(Message.Assistant callsMessage);
    }

    private sealed interface Out permits Yield, Failure {}

    private record Yield(Message.Assistant message) implements Out {}

    private record Failure(Exception error) implements Out {}

    /**
     * Unwinds the loop thread when the episode ended while it waited: an Error, so that no
     * {@code catch (RuntimeException)} on the way (the agent loop's executor guard) turns it into a result.
     */
    private static final class Ended extends Error {
        Ended() {
            super(null, null, false, false);
        }
    }

    private final Candidate model;
    private final String systemPrompt;
    private final Actions actions;
    private final int maxTurnSteps;
    private final LinkedBlockingQueue<List<Message>> toLoop = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<Out> fromLoop = new LinkedBlockingQueue<>();
    private final List<ModelCall> pendingCalls = new ArrayList<>();
    private Usage pendingUsage = Usage.ZERO;
    private Thread thread;
    private int seen;
    private List<ToolSpec> protocolTools = List.of();
    private volatile boolean closed;

    public YieldingLoop(Candidate model, String systemPrompt, Actions actions, int maxTurnSteps) {
        if (maxTurnSteps < 1) throw new IllegalArgumentException("maxTurnSteps must be at least 1");
        this.model = model;
        this.systemPrompt = systemPrompt;
        this.actions = actions;
        this.maxTurnSteps = maxTurnSteps;
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
        if (closed) throw new IllegalStateException("loop closed");
        // What is new since the protocol last asked: the counterpart's messages (and, first, the
        // protocol's opening assistant message), or the results of the calls the loop handed over.
        List<Message> fresh = new ArrayList<>(history.subList(Math.min(seen, history.size()), history.size()));
        seen = history.size() + 1; // + the message returned now
        if (thread == null) {
            protocolTools = List.copyOf(tools);
            fresh.removeIf(m -> m instanceof Message.System);
            thread = Thread.ofPlatform().daemon().name("agent-loop").start(this::run);
        }
        toLoop.add(fresh);
        Out out;
        try {
            out = fromLoop.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the agent loop ran");
        }
        return switch (out) {
            case Failure f -> {
                if (f.error() instanceof InfrastructureFailure i) throw i;
                throw (RuntimeException) f.error();
            }
            case Yield y -> drain(y.message());
        };
    }

    private synchronized Turn drain(Message.Assistant m) {
        Message.Assistant withUsage = m.withUsage(pendingUsage);
        Turn t = new Turn(withUsage, pendingCalls);
        pendingCalls.clear();
        pendingUsage = Usage.ZERO;
        return t;
    }

    private synchronized void account(Turn t) {
        pendingCalls.addAll(t.calls());
        if (t.message().usage() != null)
            pendingUsage = pendingUsage.plus(t.message().usage());
    }

    private synchronized void account(InfrastructureFailure f) {
        pendingCalls.addAll(f.attempts());
    }

    private void run() {
        List<Message> working = new ArrayList<>();
        working.add(new Message.System(systemPrompt));
        Candidate counted = (h, t) -> {
            try {
                Turn turn = model.next(h, t);
                account(turn);
                return turn;
            } catch (InfrastructureFailure f) {
                account(f);
                throw f;
            }
        };
        int[] callIds = {0};
        ProtocolCalls protocol = callsMessage -> {
            List<ToolCall> ids = new ArrayList<>();
            for (ToolCall c : callsMessage.toolCalls()) {
                ids.add(new ToolCall(
                        "loop-call-" + callIds[0]++, c.name(), c.arguments(), c.rawArguments(), c.malformed()));
            }
            fromLoop.add(new Yield(new Message.Assistant(callsMessage.content(), ids)));
            List<Message> results = await();
            List<Message.Tool> answers = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                Message.Tool r = i < results.size() && results.get(i) instanceof Message.Tool t
                        ? t
                        : new Message.Tool(
                                ids.get(i).id(), ids.get(i).name(), "Error: the environment gave no result", true);
                answers.add(r);
            }
            return answers;
        };
        try {
            while (!closed) {
                working.addAll(await());
                Message.Assistant[] last = {null};
                Candidate remembering = (h, t) -> {
                    if (closed) throw new Ended();
                    Turn turn = counted.next(h, t);
                    last[0] = turn.message();
                    return turn;
                };
                ToolExecutor executor = calls -> {
                    List<Message.Tool> answers = actions.execute(calls, last[0], protocol);
                    List<Message.Tool> out = new ArrayList<>(calls.size());
                    for (int i = 0; i < calls.size(); i++) {
                        Message.Tool a = answers.get(i);
                        // The model's own call id, whatever id the protocol gave the call.
                        out.add(new Message.Tool(calls.get(i).id(), calls.get(i).name(), a.content(), a.error()));
                    }
                    return out;
                };
                Transcript t =
                        new AgentLoop(maxTurnSteps).run(remembering, working, actions.tools(protocolTools), executor);
                working = new ArrayList<>(t.messages());
                switch (t.stop()) {
                    case ANSWERED -> fromLoop.add(new Yield(new Message.Assistant(t.finalAnswer(), List.of())));
                    case MAX_STEPS -> fromLoop.add(new Yield(new Message.Assistant(null, List.of())));
                    case INFRASTRUCTURE_FAILURE -> {
                        fromLoop.add(new Failure(t.failure()));
                        return;
                    }
                }
            }
        } catch (Ended e) {
            // the episode is over
        } catch (RuntimeException e) {
            fromLoop.add(new Failure(e));
        }
    }

    private List<Message> await() {
        try {
            while (true) {
                List<Message> m = toLoop.poll(1, java.util.concurrent.TimeUnit.SECONDS);
                if (m != null) return m;
                if (closed) throw new Ended();
            }
        } catch (InterruptedException e) {
            throw new Ended();
        }
    }

    /** Ends the loop's thread and releases the actions' resources. */
    @Override
    public void close() {
        closed = true;
        if (thread != null) thread.interrupt();
        actions.close();
    }
}
