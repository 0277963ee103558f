package brokkr.domains.bfcl.multiturn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.domains.bfcl.ToolCompiler;
import brokkr.repl.Harness;
import brokkr.repl.JavaRepl;
import brokkr.value.PyDict;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Upstream's step limit under the loop harnesses: more than {@value MultiTurnInference#MAXIMUM_STEP_LIMIT} model
 * steps with calls in one turn force-quit the task exactly as upstream's loop does (the same trajectory, the same
 * number of model steps), and the calls of one REPL snippet are one step however many there are.
 */
class MultiTurnHarnessTest {
    static final MultiTurnData DATA = MultiTurnData.load();
    static final MultiTurnTools TOOLS = MultiTurnTools.load();
    static final MultiTurnData.Task TASK = DATA.task("multi_turn_base_0");
    static final Harness LOOP = Harness.of("loop", "tools", null, PyDict.empty());
    static final Harness REPL = Harness.of("loop", "repl", "compute", PyDict.empty());

    /** Calls {@code pwd()} in every step, counting its steps. */
    record Looping(AtomicInteger steps, String code) implements Candidate {
        @Override
        public Turn next(List<Message> history, List<brokkr.conversation.ToolSpec> tools) {
            int n = steps.incrementAndGet();
            if (code != null)
                return Turn.of(new Message.Assistant(
                        null, List.of(new ToolCall("s" + n, JavaRepl.TOOL, PyDict.of("code", code)))));
            return Turn.of(new Message.Assistant(null, List.of(new ToolCall("s" + n, "pwd", PyDict.empty()))));
        }
    }

    static MultiTurnInference.Trajectory run(Harness h, String space, Candidate model) {
        return MultiTurnHarness.run(
                h,
                space,
                TASK,
                TOOLS,
                model,
                ToolCompiler.Style.OPENAI_COMPLETIONS,
                MultiTurnBenchmark.MODEL_NAME,
                null);
    }

    @Test
    void theStepLimitForceQuitsAsUpstreamsLoopDoes() {
        AtomicInteger upstreamSteps = new AtomicInteger(),
                loopSteps = new AtomicInteger(),
                replSteps = new AtomicInteger();
        var upstream = MultiTurnInference.run(
                TASK,
                TOOLS,
                new Looping(upstreamSteps, null),
                ToolCompiler.Style.OPENAI_COMPLETIONS,
                MultiTurnBenchmark.MODEL_NAME,
                null);
        var loop = run(LOOP, "tools", new Looping(loopSteps, null));
        var repl = run(REPL, "repl", new Looping(replSteps, "pwd(map());"));
        assertTrue(upstream.forceQuit());
        assertEquals(1, upstream.turns().size());
        assertEquals(
                MultiTurnInference.MAXIMUM_STEP_LIMIT + 1,
                upstream.turns().getFirst().size());
        for (var t : List.of(loop, repl)) {
            assertTrue(t.forceQuit());
            assertEquals(upstream.turns(), t.turns());
        }
        assertEquals(upstreamSteps.get(), loopSteps.get());
        assertEquals(upstreamSteps.get(), replSteps.get());
        // The working conversation ends with the last step's results: nothing after the limit was asked of the model.
        assertTrue(
                repl.messages().getLast() instanceof Message.Tool r
                        && r.content().contains("current_working_directory"),
                repl.messages().getLast().toString());
    }

    @Test
    void aSnippetsCallsAreOneStepHoweverManyTheyAre() {
        String thirty = "for (int i = 0; i < 30; i++) pwd(map());";
        Candidate model = (history, tools) -> history.getLast() instanceof Message.Tool
                ? Turn.of(new Message.Assistant("done"))
                : Turn.of(new Message.Assistant(
                        null, List.of(new ToolCall("c", JavaRepl.TOOL, PyDict.of("code", thirty)))));
        var t = run(REPL, "repl", model);
        assertFalse(t.forceQuit());
        assertEquals(TASK.question().size(), t.turns().size());
        List<List<String>> first = t.turns().getFirst();
        assertEquals(2, first.size()); // the snippet's step and the text answer
        assertEquals(30, first.getFirst().size());
        assertTrue(first.getFirst().stream().allMatch("pwd()"::equals));
        assertEquals(List.of(), first.get(1));
    }

    @Test
    void aLoopHarnessNeedsAMatchingActionSpace() {
        Candidate idle = (h, t) -> Turn.of(new Message.Assistant("hi"));
        assertThrows(IllegalArgumentException.class, () -> run(LOOP, "reference", idle));
        assertThrows(IllegalArgumentException.class, () -> run(LOOP, "repl", idle));
        assertThrows(IllegalArgumentException.class, () -> run(REPL, "tools", idle));
        assertThrows(IllegalArgumentException.class, () -> run(Harness.DEFAULT_REFERENCE, "tools", idle));
    }
}
