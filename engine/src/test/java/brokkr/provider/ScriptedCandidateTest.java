package brokkr.provider;

import static brokkr.provider.ScriptedCandidate.*;
import static org.junit.jupiter.api.Assertions.*;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptedCandidateTest {

    private static final List<Message> START = List.of(new Message.System("sys"), new Message.User("cancel order #1"));

    @Test
    void replayFollowsTheScriptByAssistantTurnAndAssignsStableIds() throws InfrastructureFailure {
        ScriptedCandidate c = ScriptedCandidate.of(replay(
                List.of(
                        calls(call("get_order", "order_id", "#1"), call("get_user", "user_id", "u1")),
                        sayAndCall(
                                "Cancelling.",
                                call("cancel_order", PyDict.of("order_id", "#1", "reason", "no longer needed")))),
                say("Done.")));
        List<Message> history = new ArrayList<>(START);
        Turn t1 = c.next(history, List.of());
        assertEquals(
                List.of("call_0_0", "call_0_1"),
                t1.message().toolCalls().stream().map(ToolCall::id).toList());
        history.add(t1.message());
        for (ToolCall call : t1.message().toolCalls())
            history.add(new Message.Tool(call.id(), call.name(), "{}", false));
        Turn t2 = c.next(history, List.of());
        assertEquals("Cancelling.", t2.message().content());
        assertEquals("call_1_0", t2.message().toolCalls().getFirst().id());
        history.add(t2.message());
        history.add(new Message.Tool("call_1_0", "cancel_order", "{}", false));
        Turn t3 = c.next(history, List.of());
        assertEquals("Done.", t3.message().content());
        history.add(t3.message());
        assertEquals("Done.", c.next(history, List.of()).message().content(), "exhausted: the closing message again");

        assertEquals(t2, c.next(history.subList(0, 5), List.of()), "a pure function of the history");
    }

    @Test
    void recordsAPseudoChatCompletionsExchange() throws Exception {
        ScriptedCandidate c = new ScriptedCandidate(
                (h, tools) -> calls(call("get_weather", "location", "Oslo")),
                ProviderOptions.defaults("gold").withParallelToolCalls(false));
        Turn t = c.next(START, List.of(Fixtures.WEATHER));
        ModelCall call = t.calls().getFirst();
        assertEquals("scripted", call.provider());
        assertEquals("gold", call.model());
        assertEquals(200, call.status());
        assertEquals(0, call.startedAtMillis());
        assertEquals(
                OpenAiChat.INSTANCE.encodeRequest(
                        START,
                        List.of(Fixtures.WEATHER),
                        ProviderOptions.defaults("gold").withParallelToolCalls(false)),
                call.requestBody());
        assertTrue(call.requestBody().contains("\"parallel_tool_calls\": false"));
        assertEquals(
                new Message.Assistant(
                        null, List.of(new ToolCall("call_0_0", "get_weather", PyDict.of("location", "Oslo")))),
                t.message());
        ToolCall decoded = OpenAiChat.INSTANCE
                .decodeResponse(call.responseBody())
                .toolCalls()
                .getFirst();
        assertEquals(
                List.of("call_0_0", "get_weather", PyDict.of("location", "Oslo")),
                List.of(decoded.id(), decoded.name(), decoded.arguments()));
        assertEquals(
                call, c.next(START, List.of(Fixtures.WEATHER)).calls().getFirst(), "replays record the same bytes");
    }

    @Test
    void rawCallIsClassifiedLikeAProviderWould() throws InfrastructureFailure {
        ToolCall bad = rawCall("get_weather", "{\"location\": ");
        assertTrue(bad.isMalformed());
        assertFalse(rawCall("get_weather", "{\"location\": \"Oslo\"}").isMalformed());
        Turn t = ScriptedCandidate.of((h, tools) -> calls(bad)).next(START, List.of());
        assertEquals("call_0_0", t.message().toolCalls().getFirst().id());
        assertTrue(t.message().toolCalls().getFirst().isMalformed());
        assertTrue(
                t.calls().getFirst().responseBody().contains("\"arguments\": \"{\\\"location\\\": \""),
                "the raw text is what the model 'sent'");
    }
}
