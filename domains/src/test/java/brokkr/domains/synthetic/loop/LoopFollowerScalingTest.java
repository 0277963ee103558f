package brokkr.domains.synthetic.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.ToolExecutor;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scripted followers decide each step from the end of the conversation: a walk of n hops reads
 * O(n) messages in all (the whole conversation once, for the answer), not the O(n^2) of re-reading
 * the history at every step. Counted, not timed.
 */
class LoopFollowerScalingTest {
    /** A conversation that counts how many of its messages were read. */
    static final class Counting extends AbstractList<Message> {
        final List<Message> messages = new ArrayList<>();
        long reads;

        @Override
        public Message get(int i) {
            reads++;
            return messages.get(i);
        }

        @Override
        public int size() {
            return messages.size();
        }
    }

    /** Walks {@code chain} with {@code follower} as the agent loop does; the messages read in all. */
    static long readsOfAWalk(PointerChain chain, Candidate follower, String expectedLine) throws Exception {
        Counting history = new Counting();
        history.messages.addAll(PointerChasing.opening(chain));
        ToolExecutor tools = ToolExecutor.sequential(PointerChasing.handler(chain));
        for (int step = 0; step < PointerChasing.maxSteps(chain.depth()); step++) {
            Turn t = follower.next(history, PointerChasing.TOOLS);
            history.messages.add(t.message());
            if (!t.message().hasToolCalls()) break;
            history.messages.addAll(tools.execute(t.message().toolCalls()));
        }
        var transcript = new Transcript(history.messages, Usage.ZERO, List.of(), Transcript.Stop.ANSWERED, null);
        assertEquals(
                expectedLine, PointerChasing.score(chain, transcript).line().substring(0, expectedLine.length()));
        return history.reads;
    }

    @Test
    void everyFollowerReadsALinearNumberOfMessages() throws Exception {
        PointerChain chain = PointerChain.of(3_000);
        int n = chain.depth();
        long ideal = readsOfAWalk(chain, LoopFollower.ideal(), "PASS depth=3000 toolCalls=3000/3000");
        long early = readsOfAWalk(chain, LoopFollower.earlyStop(n / 2), "FAIL depth=3000 toolCalls=1500/3000");
        long retry = readsOfAWalk(chain, LoopFollower.retry(n / 2), "FAIL depth=3000 toolCalls=3001/3000");
        // Each step reads a few messages at the start and the end; the answer reads the 2n + 2 once.
        for (long reads : new long[] {ideal, early, retry}) {
            assertTrue(
                    reads < 12L * n,
                    "messages read for a walk of " + n + " hops: " + reads + " (re-reading per step: ~" + (long) n * n
                            + ")");
        }
    }
}
