package brokkr.agent;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the tool calls of one assistant turn and answers each, in call order. All calls of one
 * assistant message form one turn; an executor may run them one after another or all at once.
 */
@FunctionalInterface
public interface ToolExecutor {
    List<Message.Tool> execute(List<ToolCall> calls);

    /** Runs the calls one after another on the calling thread. */
    static ToolExecutor sequential(ToolHandler handler) {
        return calls -> {
            List<Message.Tool> out = new ArrayList<>(calls.size());
            for (ToolCall c : calls) out.add(answer(handler, c));
            return out;
        };
    }

    /**
     * Runs the calls of a turn at the same time, one virtual thread per call. The threads wait at a
     * common start gate so that all calls of the turn are released together: how much they overlap
     * then depends on the handler, not on how fast this thread could start the others.
     */
    static ToolExecutor concurrent(ToolHandler handler) {
        return calls -> {
            if (calls.size() <= 1) return sequential(handler).execute(calls);
            Message.Tool[] out = new Message.Tool[calls.size()];
            CountDownLatch gate = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>(calls.size());
            for (int i = 0; i < calls.size(); i++) {
                int slot = i;
                threads.add(Thread.ofVirtual().name("tool-call-" + i).start(() -> {
                    try {
                        gate.await();
                        out[slot] = answer(handler, calls.get(slot));
                    } catch (InterruptedException e) {
                        out[slot] = new Message.Tool(
                                calls.get(slot).id(), calls.get(slot).name(), "Error: tool call interrupted", true);
                    }
                }));
            }
            gate.countDown();
            boolean interrupted = false;
            for (Thread t : threads) {
                while (true) {
                    try {
                        t.join();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            return List.of(out);
        };
    }

    /** One call answered; a throwing handler yields an error message naming the failure. */
    static Message.Tool answer(ToolHandler handler, ToolCall call) {
        ToolResult r;
        try {
            r = handler.handle(call);
            if (r == null) r = ToolResult.error("Error: tool " + call.name() + " returned nothing");
        } catch (RuntimeException e) {
            r = ToolResult.error("Error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return new Message.Tool(call.id(), call.name(), r.content(), r.error());
    }
}
