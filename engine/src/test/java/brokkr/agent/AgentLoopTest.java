package brokkr.agent;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgentLoopTest {
    static final List<ToolSpec> TOOLS = List.of(new ToolSpec(
            "echo",
            "echoes x",
            PyDict.of("type", "object", "properties", PyDict.of("x", PyDict.of("type", "string")))));
    static final List<Message> OPENING = List.of(new Message.System("sys"), new Message.User("go"));
    static final ToolHandler ECHO =
            c -> ToolResult.ok("echo:" + c.arguments().get("x").asStr());

    static ToolCall echo(String id, String x) {
        return new ToolCall(id, "echo", PyDict.of("x", x));
    }

    static ModelCall record(int n) {
        return new ModelCall("scripted", "m", 1, "req" + n, 200, "resp" + n, null, 0, 0);
    }

    /** Plays the given assistant messages in order, one per step, ignoring the history. */
    static Candidate script(Message.Assistant... replies) {
        int[] next = {0};
        return (history, tools) -> {
            int i = next[0]++;
            return new Turn(replies[i], List.of(record(i)));
        };
    }

    @Test
    void runsTurnsUntilTheCandidateAnswersAndSumsUsage() {
        Candidate c = script(
                new Message.Assistant(null, List.of(echo("a", "1"), echo("b", "2")), new Usage(10, 3)),
                new Message.Assistant("thinking", List.of(echo("c", "3")), new Usage(20, 4)),
                new Message.Assistant("done", List.of(), new Usage(30, 5)));
        Transcript t = new AgentLoop(10).run(c, OPENING, TOOLS, ToolExecutor.sequential(ECHO));
        assertEquals(Transcript.Stop.ANSWERED, t.stop());
        assertEquals("done", t.finalAnswer());
        assertEquals(new Usage(60, 12), t.usage());
        assertEquals(
                List.of("req0", "req1", "req2"),
                t.modelCalls().stream().map(ModelCall::requestBody).toList());
        List<String> shape = t.messages().stream()
                .map(m -> switch (m) {
                    case Message.System s -> "system";
                    case Message.User u -> "user";
                    case Message.Assistant a -> "assistant/" + a.toolCalls().size();
                    case Message.Tool tm -> "tool " + tm.toolCallId() + "=" + tm.content();
                })
                .toList();
        assertEquals(
                List.of(
                        "system",
                        "user",
                        "assistant/2",
                        "tool a=echo:1",
                        "tool b=echo:2",
                        "assistant/1",
                        "tool c=echo:3",
                        "assistant/0"),
                shape);
        assertEquals(3, t.toolCalls().size());
    }

    @Test
    void candidateSeesTheGrowingHistory() {
        List<Integer> sizes = new ArrayList<>();
        Candidate c = (history, tools) -> {
            sizes.add(history.size());
            return Turn.of(
                    sizes.size() < 3
                            ? new Message.Assistant(null, List.of(echo("id" + sizes.size(), "x")))
                            : new Message.Assistant("ok"));
        };
        new AgentLoop(10).run(c, OPENING, TOOLS, ToolExecutor.sequential(ECHO));
        assertEquals(List.of(2, 4, 6), sizes);
    }

    @Test
    void malformedCallsGetAnErrorMessageAndNeverReachTheExecutor() {
        ToolCall bad = new ToolCall("bad", "echo", PyDict.empty(), "{x: oops", "not a JSON object");
        List<ToolCall> executed = Collections.synchronizedList(new ArrayList<>());
        ToolExecutor recording = calls -> {
            executed.addAll(calls);
            return ToolExecutor.sequential(ECHO).execute(calls);
        };
        Transcript t = new AgentLoop(5)
                .run(
                        script(
                                new Message.Assistant(null, List.of(echo("a", "1"), bad, echo("b", "2"))),
                                new Message.Assistant("fine")),
                        OPENING,
                        TOOLS,
                        recording);
        assertEquals(List.of("a", "b"), executed.stream().map(ToolCall::id).toList());
        Message.Tool badAnswer = t.toolResultsById().get("bad");
        assertTrue(badAnswer.error());
        assertEquals("Error: malformed tool call arguments: not a JSON object", badAnswer.content());
        assertEquals(
                "echo:2", t.toolResultsById().get("b").content(), "positions stay aligned around the malformed call");
        assertEquals("fine", t.finalAnswer());
    }

    @Test
    void aThrowingHandlerOrExecutorBecomesErrorMessages() {
        ToolHandler flaky = c -> {
            if (c.id().equals("boom")) throw new IllegalStateException("kaput");
            return ECHO.handle(c);
        };
        Transcript t = new AgentLoop(5)
                .run(
                        script(
                                new Message.Assistant(null, List.of(echo("boom", "1"), echo("ok", "2"))),
                                new Message.Assistant("after")),
                        OPENING,
                        TOOLS,
                        ToolExecutor.concurrent(flaky));
        assertEquals(
                "Error: IllegalStateException: kaput",
                t.toolResultsById().get("boom").content());
        assertTrue(t.toolResultsById().get("boom").error());
        assertEquals("echo:2", t.toolResultsById().get("ok").content());

        ToolExecutor broken = calls -> {
            throw new IllegalArgumentException("no");
        };
        Transcript t2 = new AgentLoop(5)
                .run(
                        script(new Message.Assistant(null, List.of(echo("x", "1"))), new Message.Assistant("after")),
                        OPENING,
                        TOOLS,
                        broken);
        assertEquals(
                "Error: tool execution failed: IllegalArgumentException: no",
                t2.toolResultsById().get("x").content());

        ToolExecutor short_ = calls -> List.of();
        Transcript t3 = new AgentLoop(5)
                .run(
                        script(new Message.Assistant(null, List.of(echo("y", "1"))), new Message.Assistant("after")),
                        OPENING,
                        TOOLS,
                        short_);
        assertEquals(
                "Error: the tool executor gave no result for this call",
                t3.toolResultsById().get("y").content());
        assertEquals("after", t3.finalAnswer());
    }

    /** The cell's budget, spent through the recorder as on the evaluation path: the step whose tokens reach it ends the run. */
    @Test
    void stopsAtTheStepThatReachesTheCellBudget() {
        Candidate forever = (history, tools) -> Turn.of(new Message.Assistant(
                null, List.of(echo("k" + history.size(), "x")), new brokkr.conversation.Usage(100, 10)));
        var recorder =
                new brokkr.eval.Evaluation.Recorder((role, c) -> c, new brokkr.cost.CellBudget(null, 250L).meter(null));
        Transcript t = new AgentLoop(10, recorder.cellLimit())
                .run(recorder.wrap("agent", forever), OPENING, TOOLS, ToolExecutor.sequential(ECHO));
        assertEquals(Transcript.Stop.CELL_BUDGET, t.stop());
        assertEquals(new brokkr.conversation.Usage(300, 30), t.usage());
        assertEquals("330 of 250 tokens", recorder.cellLimit().describe());
        // The user simulator's tokens are the evaluation's: the same calls as another role leave the loop running.
        var user =
                new brokkr.eval.Evaluation.Recorder((role, c) -> c, new brokkr.cost.CellBudget(null, 250L).meter(null));
        assertEquals(
                Transcript.Stop.MAX_STEPS,
                new AgentLoop(10, user.cellLimit())
                        .run(user.wrap("user", forever), OPENING, TOOLS, ToolExecutor.sequential(ECHO))
                        .stop());
    }

    @Test
    void stopsAtMaxStepsWithoutAnAnswer() {
        Candidate forever =
                (history, tools) -> Turn.of(new Message.Assistant(null, List.of(echo("k" + history.size(), "x"))));
        Transcript t = new AgentLoop(3).run(forever, OPENING, TOOLS, ToolExecutor.sequential(ECHO));
        assertEquals(Transcript.Stop.MAX_STEPS, t.stop());
        assertNull(t.finalAnswer());
        assertEquals(3, t.assistantMessages().size());
        assertEquals(3, t.toolCalls().size(), "the calls of the last allowed step are still executed");
        assertInstanceOf(Message.Tool.class, t.messages().getLast());
    }

    @Test
    void infrastructureFailureIsRecordedWithItsAttempts() {
        int[] n = {0};
        Candidate failing = (history, tools) -> {
            if (n[0]++ == 0) return new Turn(new Message.Assistant(null, List.of(echo("a", "1"))), List.of(record(0)));
            throw new InfrastructureFailure("retries exhausted", List.of(record(1), record(2)), null);
        };
        Transcript t = new AgentLoop(5).run(failing, OPENING, TOOLS, ToolExecutor.sequential(ECHO));
        assertEquals(Transcript.Stop.INFRASTRUCTURE_FAILURE, t.stop());
        assertEquals("retries exhausted", t.failure().getMessage());
        assertEquals(3, t.modelCalls().size());
        assertNull(t.finalAnswer());
    }

    @Test
    void concurrentExecutorRunsTheCallsOfATurnAtTheSameTimeAndKeepsTheirOrder() throws Exception {
        int n = 6;
        CountDownLatch allInside = new CountDownLatch(n);
        // Each call waits until every call of the turn is inside the handler: only a concurrent executor gets through.
        ToolHandler rendezvous = c -> {
            allInside.countDown();
            try {
                return allInside.await(10, TimeUnit.SECONDS) ? ECHO.handle(c) : ToolResult.error("alone");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) calls.add(echo("c" + i, String.valueOf(i)));
        List<Message.Tool> out = ToolExecutor.concurrent(rendezvous).execute(calls);
        assertEquals(
                List.of("echo:0", "echo:1", "echo:2", "echo:3", "echo:4", "echo:5"),
                out.stream().map(Message.Tool::content).toList());
        assertEquals(
                List.of("c0", "c1", "c2", "c3", "c4", "c5"),
                out.stream().map(Message.Tool::toolCallId).toList());
    }
}
