package brokkr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.conversation.Usage;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loop as a step protocol's agent: the protocol sees each batch of calls as one assistant message
 * and answers it; the loop's model sees its own working conversation; model calls and usage reach the
 * protocol with the next message handed over.
 */
class YieldingLoopTest {
    static final ToolSpec LOOKUP = new ToolSpec("lookup", "Looks up a key.", PyDict.of("type", "object"));

    static ModelCall call(int n) {
        return new ModelCall("fake", "m", 1, "request " + n, 200, "response", null, 0, 0);
    }

    @Test
    void batchesReachTheProtocolAndTheModelSeesItsWorkingConversation() throws Exception {
        List<List<Message>> seenByModel = new ArrayList<>();
        brokkr.conversation.Candidate model = (history, tools) -> {
            seenByModel.add(List.copyOf(history));
            long toolResults =
                    history.stream().filter(m -> m instanceof Message.Tool).count();
            Message.Assistant m = toolResults == 0
                    ? new Message.Assistant(
                            "checking",
                            List.of(
                                    new ToolCall("a", "lookup", PyDict.of("k", 1)),
                                    new ToolCall("b", "lookup", PyDict.of("k", 2))),
                            new Usage(10, 2))
                    : new Message.Assistant("found both", List.of(), new Usage(20, 3));
            return new Turn(m, List.of(call(seenByModel.size())));
        };
        try (YieldingLoop loop = new YieldingLoop(model, "You help.", YieldingLoop.Actions.PROTOCOL_TOOLS, 5)) {
            List<Message> protocol = new ArrayList<>(List.of(
                    new Message.System("protocol prompt"),
                    new Message.Assistant("Hi!"),
                    new Message.User("find 1 and 2")));
            Turn first = loop.next(protocol, List.of(LOOKUP));
            assertEquals(2, first.message().toolCalls().size(), "both calls of the model's step in one message");
            assertEquals("checking", first.message().content());
            assertEquals(List.of(call(1)), first.calls());
            assertEquals(new Usage(10, 2), first.message().usage());
            protocol.add(first.message());
            for (ToolCall c : first.message().toolCalls())
                protocol.add(new Message.Tool(c.id(), c.name(), "value of " + c.arguments(), false));
            Turn answer = loop.next(protocol, List.of(LOOKUP));
            assertEquals("found both", answer.message().content());
            assertTrue(answer.message().toolCalls().isEmpty());
            assertEquals(List.of(call(2)), answer.calls());
            List<Message> second = seenByModel.get(1);
            assertEquals(
                    new Message.System("You help."), second.getFirst(), "the loop's own prompt, not the protocol's");
            assertEquals("value of {k=2}", second.getLast().content(), second.toString());
            assertEquals(
                    "b", ((Message.Tool) second.getLast()).toolCallId(), "results answer the model's own call ids");
        }
    }

    @Test
    void aTurnBeyondTheStepLimitEndsWithAnEmptyAnswer() throws Exception {
        brokkr.conversation.Candidate busy = (history, tools) ->
                Turn.of(new Message.Assistant(null, List.of(new ToolCall(null, "lookup", PyDict.of()))));
        YieldingLoop.Actions local = new YieldingLoop.Actions() {
            @Override
            public List<ToolSpec> tools(List<ToolSpec> protocolTools) {
                return List.of(LOOKUP);
            }

            @Override
            public List<Message.Tool> execute(
                    List<ToolCall> calls, Message.Assistant message, YieldingLoop.ProtocolCalls protocol) {
                return calls.stream()
                        .map(c -> new Message.Tool(c.id(), c.name(), "again", false))
                        .toList();
            }
        };
        try (YieldingLoop loop = new YieldingLoop(busy, "p", local, 3)) {
            Turn t = loop.next(List.of(new Message.User("go")), List.of(LOOKUP));
            assertNull(t.message().content());
            assertTrue(t.message().toolCalls().isEmpty());
        }
    }
}
