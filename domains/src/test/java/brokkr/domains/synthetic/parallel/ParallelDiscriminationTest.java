package brokkr.domains.synthetic.parallel;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.agent.ToolExecutor;
import brokkr.agent.ToolResult;
import brokkr.agent.Transcript;
import brokkr.conversation.Candidate;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParallelDiscriminationTest {

    static String line(int tasks, Candidate c) {
        LookupTable table = LookupTable.of(tasks);
        ConcurrencyGauge gauge = new ConcurrencyGauge();
        Transcript t = ParallelDiscrimination.play(table, c, gauge);
        return ParallelDiscrimination.score(table, t, gauge.maxConcurrency()).line();
    }

    static ToolCall lookup(String callId, String id) {
        return new ToolCall(callId, "lookup", PyDict.of("id", id));
    }

    static Candidate script(List<Message.Assistant> replies) {
        int[] next = {0};
        return (history, tools) -> Turn.of(replies.get(next[0]++));
    }

    @Test
    void theTableIsFixedByItsSizeWithDistinctIdsAndValues() {
        LookupTable eight = LookupTable.of(8);
        assertEquals(eight, LookupTable.of(8));
        // Pinned: a size must be the same task on every run and machine.
        assertEquals(
                "id-a3274=w26n8xpx",
                eight.ids().getFirst() + "=" + eight.valueList().getFirst());
        for (int tasks : new int[] {1, 4, 32, 500}) {
            LookupTable t = LookupTable.of(tasks);
            assertEquals(tasks, new HashSet<>(t.ids()).size());
            assertEquals(tasks, new HashSet<>(t.valueList()).size());
        }
    }

    @Test
    void theToolAnswersAValueOrAnError() {
        LookupTable table = LookupTable.of(4);
        var tool = ParallelDiscrimination.handler(table);
        String id = table.ids().get(2);
        assertEquals(ToolResult.ok("value=" + table.valueList().get(2)), tool.handle(lookup("a", id)));
        assertEquals(ToolResult.error("ERROR: unknown id 'id-zzzzz'."), tool.handle(lookup("b", "id-zzzzz")));
        assertEquals(
                ToolResult.error("ERROR: lookup() missing 1 required positional argument: 'id'"),
                tool.handle(new ToolCall("c", "lookup", PyDict.empty())));
    }

    @Test
    void thePromptListsEveryIdUpFront() {
        LookupTable table = LookupTable.of(8);
        String prompt = ParallelDiscrimination.systemPrompt(table);
        assertTrue(prompt.contains("these 8 ids:\n" + String.join(", ", table.ids()) + "\n"), prompt);
        assertEquals(table.ids(), Batcher.ids(ParallelDiscrimination.opening(table)));
    }

    @Test
    void theBatcherIssuesEveryLookupInOneTurn() {
        assertEquals(
                "pd tasks=8 calls=8 turns=1 maxConcurrency=8 efficiency=8.0 correct=yes", line(8, Batcher.batch()));
        assertEquals(
                "pd tasks=32 calls=32 turns=1 maxConcurrency=32 efficiency=32.0 correct=yes",
                line(32, Batcher.named("batch")));
        assertEquals(
                "pd tasks=1 calls=1 turns=1 maxConcurrency=1 efficiency=1.0 correct=yes", line(1, Batcher.batch()));
    }

    @Test
    void theSerialAgentSpendsOneTurnPerLookup() {
        assertEquals(
                "pd tasks=8 calls=8 turns=8 maxConcurrency=1 efficiency=1.0 correct=yes", line(8, Batcher.serial()));
        assertEquals(
                "pd tasks=4 calls=4 turns=4 maxConcurrency=1 efficiency=1.0 correct=yes",
                line(4, Batcher.named("serial")));
    }

    @Test
    void partialBatchesGiveAFractionalEfficiencyInPythonsFloatRepr() {
        assertEquals(
                "pd tasks=8 calls=8 turns=3 maxConcurrency=3 efficiency=2.6666666666666665 correct=yes",
                line(8, new Batcher("threes", 3)));
    }

    @Test
    void correctNeedsEveryLookupAndEveryValueInTheAnswer() {
        LookupTable table = LookupTable.of(4);
        List<String> ids = table.ids();
        List<String> values = table.valueList();
        List<ToolCall> firstThree = new ArrayList<>();
        for (int i = 0; i < 3; i++) firstThree.add(lookup("c" + i, ids.get(i)));
        // Knows all four values (say, guessed) but looked up only three.
        String skipped = run(
                table,
                script(List.of(
                        new Message.Assistant(null, firstThree), new Message.Assistant(String.join(" ", values)))));
        assertEquals("pd tasks=4 calls=3 turns=1 maxConcurrency=3 efficiency=3.0 correct=no", skipped);

        List<ToolCall> all = new ArrayList<>(firstThree);
        all.add(lookup("c3", ids.get(3)));
        String forgot = run(
                table,
                script(List.of(
                        new Message.Assistant(null, all),
                        new Message.Assistant(String.join(" ", values.subList(0, 3))))));
        assertEquals("pd tasks=4 calls=4 turns=1 maxConcurrency=4 efficiency=4.0 correct=no", forgot);

        String chatty = run(
                table,
                script(List.of(
                        new Message.Assistant(null, all),
                        new Message.Assistant(
                                ids.get(0) + ": " + values.get(0) + ",\n" + String.join(", ", values.subList(1, 4))))));
        assertEquals("pd tasks=4 calls=4 turns=1 maxConcurrency=4 efficiency=4.0 correct=yes", chatty);

        String substring = run(
                table,
                script(List.of(
                        new Message.Assistant(null, all), new Message.Assistant("x" + String.join("", values)))));
        assertEquals(
                "pd tasks=4 calls=4 turns=1 maxConcurrency=4 efficiency=4.0 correct=no",
                substring,
                "values must be whole tokens of the answer");
    }

    @Test
    void duplicatesAndUnknownIdsCountAsCallsAndNoLookupAtAllIsZeroEfficiency() {
        LookupTable table = LookupTable.of(2);
        List<String> ids = table.ids();
        String noisy = run(
                table,
                script(List.of(
                        new Message.Assistant(
                                null,
                                List.of(lookup("a", ids.get(0)), lookup("b", ids.get(0)), lookup("c", "id-nope"))),
                        new Message.Assistant("let me continue", List.of(lookup("d", ids.get(1)))),
                        new Message.Assistant(String.join(" ", table.valueList())))));
        assertEquals("pd tasks=2 calls=4 turns=2 maxConcurrency=3 efficiency=2.0 correct=yes", noisy);
        assertEquals(
                "pd tasks=2 calls=0 turns=0 maxConcurrency=0 efficiency=0.0 correct=no",
                run(table, script(List.of(new Message.Assistant("I cannot look these up.")))));
    }

    @Test
    void theGaugeReadsOneForSequentialAndAllForConcurrentCalls() {
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) calls.add(lookup("c" + i, "id"));
        ConcurrencyGauge serial = new ConcurrencyGauge(Duration.ofMillis(5));
        ToolExecutor.sequential(serial.wrap(c -> ToolResult.ok("x"))).execute(calls);
        assertEquals(1, serial.maxConcurrency());
        ConcurrencyGauge parallel = new ConcurrencyGauge(Duration.ofMillis(50));
        ToolExecutor.concurrent(parallel.wrap(c -> ToolResult.ok("x"))).execute(calls);
        assertEquals(5, parallel.maxConcurrency());
    }

    static String run(LookupTable table, Candidate c) {
        ConcurrencyGauge gauge = new ConcurrencyGauge();
        return ParallelDiscrimination.score(table, ParallelDiscrimination.play(table, c, gauge), gauge.maxConcurrency())
                .line();
    }
}
