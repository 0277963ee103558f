package brokkr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.value.PyDict;
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pcollections.PVector;

/**
 * A long loop costs the same per step at any depth: the candidate is handed one persistent history
 * that grows by appends (never a copy of the conversation per step), and usage and model calls are
 * summed as they come. Asserted structurally and by allocation per step, never by time.
 */
class AgentLoopScalingTest {
    private static final ToolCall CALL = new ToolCall("c", "echo", PyDict.of("x", "1"));
    private static final Message.Assistant ASK = new Message.Assistant(null, List.of(CALL), new Usage(2, 1));
    private static final ModelCall RECORD = new ModelCall("scripted", "m", 1, "req", 200, "resp", null, 0, 0);
    private static final ToolExecutor ECHO = calls -> List.of(new Message.Tool("c", "echo", "1", false));

    /** Calls the tool {@code depth} times, reading only the newest message, then answers. */
    private static Candidate walker(int depth) {
        return (history, tools) -> history.getLast() instanceof Message.Tool && (history.size() - 2) / 2 >= depth
                ? new Turn(new Message.Assistant("done", List.of(), Usage.ZERO), List.of(RECORD))
                : new Turn(ASK, List.of(RECORD));
    }

    @Test
    void theCandidateSeesOnePersistentHistoryGrowingByAppends() {
        List<List<Message>> seen = new ArrayList<>();
        Candidate walk = walker(50);
        Candidate watching = (history, tools) -> {
            seen.add(history);
            return walk.next(history, tools);
        };
        Transcript t = new AgentLoop(100).run(watching, AgentLoopTest.OPENING, AgentLoopTest.TOOLS, ECHO);
        assertEquals(51, seen.size());
        for (int k = 0; k < seen.size(); k++) {
            List<Message> h = seen.get(k);
            assertInstanceOf(PVector.class, h, "a persistent list, not a copy");
            assertEquals(2 + 2 * k, h.size());
            if (k > 0) {
                List<Message> before = seen.get(k - 1);
                // The previous history is a prefix of this one, element for element (the same objects).
                for (int i = 0; i < before.size(); i++) assertSame(before.get(i), h.get(i));
                assertSame(ASK, h.get(h.size() - 2));
            }
        }
        assertEquals(t.messages().size(), seen.getLast().size() + 1);
        assertEquals(new Usage(100, 50), t.usage(), "usage summed once per step");
        assertEquals(51, t.modelCalls().size());
    }

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static double bytesPerStep(int depth) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        Transcript t = new AgentLoop(depth + 1).run(walker(depth), AgentLoopTest.OPENING, AgentLoopTest.TOOLS, ECHO);
        long bytes = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertEquals(Transcript.Stop.ANSWERED, t.stop());
        return (double) bytes / depth;
    }

    @Test
    void allocationPerStepDoesNotGrowWithDepth() {
        bytesPerStep(2_000); // warm up: compiled code allocates less than interpreted
        double small = bytesPerStep(2_000), large = bytesPerStep(32_000);
        // Copying the conversation for every call makes a step 16 times dearer at 16 times the depth;
        // a persistent history's appends grow with log(depth) only.
        assertTrue(large < 3 * small, "bytes per step: " + small + " at depth 2,000, " + large + " at depth 32,000");
    }
}
