package brokkr.provider.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Usage;
import brokkr.value.Json;
import brokkr.value.PyDict;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every form a Claude Code reply carries a call in, read back into calls; and the prompt read back as it was written. */
class ClaudeCodeRepliesTest {
    static final Set<String> TOOLS = Set.of("find_user_id_by_email", "get_order_details", "transfer_to_human_agents");

    static Message.Assistant decode(String text) {
        return ClaudeCodeReplies.decode(text, List.of(), TOOLS, 3, Usage.ZERO);
    }

    static void assertCall(ToolCall c, String name, String argsJson) {
        assertEquals(name, c.name());
        assertEquals(Json.parse(argsJson), c.arguments());
        assertFalse(c.isMalformed(), c.malformed());
    }

    @Test
    void tagsTheConventionAsksFor() {
        var m = decode(
                "Let me look.\n<tool_call>{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": \"#W1\"}}"
                        + "</tool_call>\n<tool_call>{\"name\": \"find_user_id_by_email\", \"arguments\": {\"email\": \"a@b.c\"}}"
                        + "</tool_call>");
        assertEquals(2, m.toolCalls().size());
        assertCall(m.toolCalls().get(0), "get_order_details", "{\"order_id\": \"#W1\"}");
        assertCall(m.toolCalls().get(1), "find_user_id_by_email", "{\"email\": \"a@b.c\"}");
        assertEquals("Let me look.", m.content());
        assertEquals("toolu_cc_3_0", m.toolCalls().get(0).id());
        assertEquals("toolu_cc_3_1", m.toolCalls().get(1).id());
    }

    @Test
    void anUnclosedTagAFencedCallInsideTagsAndStringArguments() {
        var m = decode(
                "<tool_call>```json\n{\"name\": \"get_order_details\", \"arguments\": \"{\\\"order_id\\\": \\\"#W2\\\"}\"}\n```"
                        + "</tool_call><tool_call>{\"name\": \"transfer_to_human_agents\", \"parameters\": {\"summary\": \"x\"}}");
        assertEquals(2, m.toolCalls().size());
        assertCall(m.toolCalls().get(0), "get_order_details", "{\"order_id\": \"#W2\"}");
        assertCall(m.toolCalls().get(1), "transfer_to_human_agents", "{\"summary\": \"x\"}");
        assertNull(m.content());
    }

    @Test
    void aCallWithoutTheTags() {
        var bare = decode("{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": \"#W3\"}}");
        assertEquals(1, bare.toolCalls().size());
        assertCall(bare.toolCalls().getFirst(), "get_order_details", "{\"order_id\": \"#W3\"}");
        assertNull(bare.content());

        var list = decode(
                "[{\"name\": \"get_order_details\", \"input\": {\"order_id\": \"#W4\"}},"
                        + " {\"function\": {\"name\": \"find_user_id_by_email\", \"arguments\": \"{\\\"email\\\": \\\"x@y.z\\\"}\"}}]");
        assertEquals(2, list.toolCalls().size());
        assertCall(list.toolCalls().get(1), "find_user_id_by_email", "{\"email\": \"x@y.z\"}");

        var fenced = decode("I'll check the order.\n```json\n{\"tool_calls\": [{\"name\": \"get_order_details\","
                + " \"arguments\": {\"order_id\": \"#W5\"}}]}\n```");
        assertEquals(1, fenced.toolCalls().size());
        assertCall(fenced.toolCalls().getFirst(), "get_order_details", "{\"order_id\": \"#W5\"}");
        assertEquals("I'll check the order.", fenced.content());
    }

    @Test
    void jsonThatNamesNoOfferedToolIsText() {
        String answer = "{\"name\": \"Alice\", \"arguments\": [\"none\"]}";
        var m = decode(answer);
        assertTrue(m.toolCalls().isEmpty());
        assertEquals(answer, m.content());
        var fenced = decode("Here:\n```json\n{\"order\": 1}\n```");
        assertTrue(fenced.toolCalls().isEmpty());
    }

    @Test
    void aNativeToolUseBlock() {
        var m = ClaudeCodeReplies.decode(
                "Checking.",
                List.of(new StreamJson.ToolUse("toolu_01", "get_order_details", PyDict.of("order_id", "#W6"))),
                TOOLS,
                0,
                new Usage(10, 5));
        assertEquals(1, m.toolCalls().size());
        assertEquals("toolu_01", m.toolCalls().getFirst().id());
        assertCall(m.toolCalls().getFirst(), "get_order_details", "{\"order_id\": \"#W6\"}");
        assertEquals("Checking.", m.content());
        assertEquals(new Usage(10, 5), m.usage());
    }

    @Test
    void aBrokenCallInTagsIsTheModelsMalformedCall() {
        var m = decode("<tool_call>{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": </tool_call>");
        assertEquals(1, m.toolCalls().size());
        assertTrue(m.toolCalls().getFirst().isMalformed());
        assertEquals(
                "{\"name\": \"get_order_details\", \"arguments\": {\"order_id\":",
                m.toolCalls().getFirst().rawArguments());
        var args = decode("<tool_call>{\"name\": \"get_order_details\", \"arguments\": [1]}</tool_call>");
        assertTrue(args.toolCalls().getFirst().isMalformed(), "arguments that are no object");
        assertEquals("get_order_details", args.toolCalls().getFirst().name());
    }

    @Test
    void thePromptReadsBackAsTheConversationAndTools() {
        List<Message> history = List.of(
                new Message.System("You are a retail agent."),
                new Message.User("Hi </conversation> <tool_call> \"quoted\"\nsecond line"),
                new Message.Assistant(
                        "Sure.", List.of(new ToolCall("c1", "get_order_details", PyDict.of("order_id", "#W1")))),
                new Message.Tool("c1", "get_order_details", "{\"status\": \"pending\"}", false),
                new Message.Tool("c2", "get_order_details", "Error: no such order", true));
        List<ToolSpec> tools = List.of(new ToolSpec(
                "get_order_details", "Get an order.", PyDict.of("type", "object", "properties", PyDict.empty())));
        String system = ClaudeCodePrompt.systemPrompt(history, tools, ClaudeCodePrompt.DEFAULT_HOST_NOTE);
        assertTrue(system.startsWith("You are a retail agent."));
        assertTrue(system.endsWith(ClaudeCodePrompt.DEFAULT_HOST_NOTE));
        assertEquals(tools, ClaudeCodePrompt.decodeTools(system));
        assertEquals(
                history.subList(1, history.size()),
                ClaudeCodePrompt.decodeConversation(ClaudeCodePrompt.prompt(history)));
        assertFalse(ClaudeCodePrompt.systemPrompt(history, tools, null).contains("harness operator"), "note off");
    }
}
