package brokkr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.agent.ToolResult;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

class TranscriptsTest {
    @Test
    void messagesSurviveTheRoundTripThroughTranscriptValues() {
        List<Message> messages = List.of(
                new Message.System("rules"),
                new Message.User("hi", List.of(new ToolCall("u1", "check_phone", PyDict.of("n", 1)))),
                new Message.Assistant(
                        null,
                        List.of(
                                new ToolCall("c1", "look", PyDict.of("k", "a")),
                                new ToolCall("c2", "look", PyDict.empty(), "{bad", "not a JSON object")),
                        new Usage(7, 3)),
                new Message.Tool("c1", "look", "found", false),
                new Message.Tool("c2", "look", "Error: malformed", true),
                new Message.Assistant("done", List.of(), Usage.ZERO));
        assertEquals(messages, Transcripts.fromValue(Transcripts.toValue(messages)));
    }

    @Test
    void readingIgnoresFieldsItDoesNotWriteAndRefusesUnknownRoles() {
        // tau2's transcripts add requestor and usage on user messages; upstream's logs write tool_calls: null
        Value tau2 = Json.parse("""
                [{"role": "user", "content": "cancel it", "tool_calls": null, "usage": {"input_tokens": 0, "output_tokens": 0}},
                 {"role": "tool", "tool_call_id": "x", "name": "t", "content": "ok", "requestor": "assistant", "error": false}]""");
        assertEquals(
                List.of(new Message.User("cancel it"), new Message.Tool("x", "t", "ok", false)),
                Transcripts.fromValue(tau2));
        assertThrows(
                IllegalArgumentException.class, () -> Transcripts.fromValue(Json.parse("[{\"role\": \"narrator\"}]")));
    }

    @Test
    void aReadOnlyWorldAnswersCallsAndStaysItself() {
        Value state = PyDict.of("k", "v");
        ToolWorld w = ToolWorld.readOnly(
                state,
                List.of("get"),
                call -> call.arguments().get("key") == null
                        ? ToolResult.error("no key")
                        : ToolResult.ok(
                                "value of " + call.arguments().get("key").asStr()));
        ToolWorld.Step ok = w.call("get", PyDict.of("key", "k"));
        assertEquals(ToolResult.ok("value of k"), ok.result());
        assertSame(w, ok.after());
        assertTrue(w.call("get", PyDict.empty()).result().error());
        assertEquals(List.of("get"), w.tools());
        assertSame(state, w.state());
    }
}
