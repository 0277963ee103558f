package brokkr.domains.tau2.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Tau2TranscriptTest {
    /** Agent text and calls (one malformed), the user's own tool call, results for both sides, usage. */
    static final List<Tau2Message> TRAJECTORY = List.of(
            new Tau2Message.Agent("Hi! How can I help you today?"),
            new Tau2Message.User("My order is late.", List.of(), new Usage(7, 3)),
            new Tau2Message.Agent(
                    null,
                    List.of(
                            new ToolCall("c1", "get_order", PyDict.of("order_id", "#W1")),
                            new ToolCall("c2", "get_user", PyDict.empty(), "{\"id\": ", "not JSON")),
                    new Usage(11, 5)),
            new Tau2Message.ToolResult("c1", "get_order", "{\"status\": \"pending\"}", Requestor.ASSISTANT, false),
            new Tau2Message.ToolResult(
                    "c2", "get_user", "Error: malformed tool call arguments", Requestor.ASSISTANT, true),
            new Tau2Message.User(null, List.of(new ToolCall("u1", "check_phone", PyDict.empty())), Usage.ZERO),
            new Tau2Message.ToolResult("u1", "check_phone", null, Requestor.USER, false));

    @Test
    void roundTripsLosslessly() {
        assertEquals(TRAJECTORY, Tau2Transcript.fromValue(Tau2Transcript.toValue(TRAJECTORY)));
        assertEquals(
                TRAJECTORY,
                Tau2Transcript.fromValue(Json.parse(brokkr.python.PyJson.dumps(Tau2Transcript.toValue(TRAJECTORY)))));
    }

    /** Upstream's message.py names: tool_calls null without calls, each call with its requestor; a tool message's call is "id". */
    @Test
    void usesUpstreamsFieldNames() {
        PyList v = Tau2Transcript.toValue(TRAJECTORY);
        assertTrue(v.get(0).asDict().get("tool_calls").isNone());
        PyDict call = v.get(2).asDict().get("tool_calls").asList().get(0).asDict();
        assertEquals(
                PyDict.of(
                        "id",
                        "c1",
                        "name",
                        "get_order",
                        "arguments",
                        PyDict.of("order_id", "#W1"),
                        "requestor",
                        "assistant"),
                call);
        PyDict malformed = v.get(2).asDict().get("tool_calls").asList().get(1).asDict();
        assertEquals("not JSON", malformed.get("malformed").asStr());
        assertEquals(
                "user",
                v.get(5)
                        .asDict()
                        .get("tool_calls")
                        .asList()
                        .get(0)
                        .asDict()
                        .get("requestor")
                        .asStr());
        PyDict tool = v.get(3).asDict();
        assertEquals(
                PyDict.of(
                        "role",
                        "tool",
                        "id",
                        "c1",
                        "name",
                        "get_order",
                        "content",
                        "{\"status\": \"pending\"}",
                        "requestor",
                        "assistant",
                        "error",
                        false),
                tool);
        assertFalse(tool.containsKey("tool_call_id"));
        assertEquals(
                PyDict.of("input_tokens", 11, "output_tokens", 5),
                v.get(2).asDict().get("usage"));
    }

    /** Attempts stored before the shape followed upstream ("tool_call_id", "tool_calls": []) still read back the same. */
    @Test
    void readsTheEarlierExperimentShape() {
        String earlier = """
                [{"role": "assistant", "content": "Hi! How can I help you today?", "tool_calls": [], "usage": {"input_tokens": 0, "output_tokens": 0}},
                 {"role": "user", "content": "My order is late.", "tool_calls": [], "usage": {"input_tokens": 7, "output_tokens": 3}},
                 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "name": "get_order", "arguments": {"order_id": "#W1"}},
                   {"id": "c2", "name": "get_user", "arguments": {}, "raw_arguments": "{\\"id\\": ", "malformed": "not JSON"}],
                  "usage": {"input_tokens": 11, "output_tokens": 5}},
                 {"role": "tool", "tool_call_id": "c1", "name": "get_order", "content": "{\\"status\\": \\"pending\\"}", "requestor": "assistant", "error": false},
                 {"role": "tool", "tool_call_id": "c2", "name": "get_user", "content": "Error: malformed tool call arguments", "requestor": "assistant", "error": true},
                 {"role": "user", "content": null, "tool_calls": [{"id": "u1", "name": "check_phone", "arguments": {}}], "usage": {"input_tokens": 0, "output_tokens": 0}},
                 {"role": "tool", "tool_call_id": "u1", "name": "check_phone", "content": null, "requestor": "user", "error": false}]
                """;
        assertEquals(TRAJECTORY, Tau2Transcript.fromValue(Json.parse(earlier)));
    }
}
