package brokkr.provider.claudecode;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.Usage;
import brokkr.provider.Wire;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a Claude Code reply (its text and any {@code tool_use} blocks) back into an assistant message, in
 * every form a call arrives in:
 *
 * <ol>
 *   <li>the convention {@link ClaudeCodePrompt#systemPrompt} asks for, {@code <tool_call>{"name": ...,
 *       "arguments": {...}}</tool_call>}, any number of them, text around them being the message's text;
 *       an opening tag whose closing tag never came (a reply cut short) still holds its call;</li>
 *   <li>a call written without the tags: the whole reply, or a fenced code block ({@code ```json}), is a call
 *       object or a list of them, naming one of the offered tools (so that a JSON answer the task asked for is
 *       not taken for a call);</li>
 *   <li>a native {@code tool_use} block (the model used the API's own tool mechanism; Claude Code, having no
 *       such tool, answered it with an error and stopped at {@code --max-turns 1}).</li>
 * </ol>
 *
 * A call object is {@code {"name", "arguments"}}, also with {@code parameters} or {@code input} for the
 * arguments, OpenAI's {@code {"function": {"name", "arguments"}}}, or a {@code {"tool_calls": [...]}} list;
 * arguments given as a JSON string are parsed. Inside tags, a call that is not valid JSON or has no name is
 * kept as a malformed call (the model's own error, answered as the episode answers a bad call).
 */
public final class ClaudeCodeReplies {
    private ClaudeCodeReplies() {}

    private static final Pattern FENCE = Pattern.compile("```[A-Za-z]*[ \\t]*\\n(.*?)\\n?```", Pattern.DOTALL);

    /**
     * The assistant message of a reply. {@code turn} numbers the call ids ({@code toolu_cc_<turn>_<i>}), so
     * that ids are unique within a conversation and the same for the same history.
     */
    public static Message.Assistant decode(
            String text, List<StreamJson.ToolUse> toolUses, Set<String> toolNames, int turn, Usage usage) {
        String t = text == null ? "" : text;
        List<ToolCall> calls = new ArrayList<>();
        String rest = tagged(t, calls, turn);
        if (calls.isEmpty()) rest = untagged(t, calls, toolNames, turn);
        for (StreamJson.ToolUse u : toolUses) {
            String id = u.id() == null || u.id().isEmpty() ? id(turn, calls.size()) : u.id();
            calls.add(Wire.fromArgumentValue(id, u.name(), u.input()));
        }
        String content = rest == null ? null : rest.strip();
        if (content != null && content.isEmpty()) content = null;
        return new Message.Assistant(content, calls, usage);
    }

    static String id(int turn, int i) {
        return "toolu_cc_" + turn + "_" + i;
    }

    /** Calls in tags, appended to {@code calls}; returns the text outside them. */
    private static String tagged(String t, List<ToolCall> calls, int turn) {
        StringBuilder rest = new StringBuilder();
        int at = 0;
        while (true) {
            int open = t.indexOf(ClaudeCodePrompt.CALL_OPEN, at);
            if (open < 0) break;
            rest.append(t, at, open);
            int from = open + ClaudeCodePrompt.CALL_OPEN.length();
            int close = t.indexOf(ClaudeCodePrompt.CALL_CLOSE, from);
            int nextOpen = t.indexOf(ClaudeCodePrompt.CALL_OPEN, from);
            // An unclosed tag ends at the next opening tag or at the end of the reply.
            int end = close >= 0 && (nextOpen < 0 || close < nextOpen) ? close : nextOpen >= 0 ? nextOpen : t.length();
            String inner = unfenced(t.substring(from, end).strip());
            int before = calls.size();
            Value v = parse(inner);
            if (v != null) collect(v, calls, turn, null);
            if (calls.size() == before) calls.add(malformed(inner, v, turn, calls.size()));
            at = end == close ? close + ClaudeCodePrompt.CALL_CLOSE.length() : end;
        }
        rest.append(t.substring(Math.min(at, t.length())));
        return rest.toString();
    }

    /** Calls written without tags: fenced blocks, else the whole reply; only calls of offered tools. */
    private static String untagged(String t, List<ToolCall> calls, Set<String> toolNames, int turn) {
        Matcher m = FENCE.matcher(t);
        StringBuilder rest = new StringBuilder();
        int at = 0;
        while (m.find()) {
            Value v = parse(m.group(1).strip());
            List<ToolCall> found = new ArrayList<>();
            if (v != null) collect(v, found, turn + 0, toolNames);
            if (found.isEmpty()) continue;
            for (ToolCall c : found) calls.add(renumbered(c, turn, calls.size()));
            rest.append(t, at, m.start());
            at = m.end();
        }
        if (!calls.isEmpty()) return rest.append(t.substring(at)).toString();
        String s = t.strip();
        if (s.startsWith("{") || s.startsWith("[")) {
            Value v = parse(s);
            if (v != null) {
                collect(v, calls, turn, toolNames);
                if (!calls.isEmpty()) return null;
            }
        }
        return t;
    }

    private static ToolCall renumbered(ToolCall c, int turn, int i) {
        return new ToolCall(id(turn, i), c.name(), c.arguments(), c.rawArguments(), c.malformed());
    }

    /** Appends the calls {@code v} holds; with {@code known} non-null, only objects naming one of those tools. */
    private static void collect(Value v, List<ToolCall> calls, int turn, Set<String> known) {
        if (v instanceof PyList l) {
            for (Value x : l) collect(x, calls, turn, known);
            return;
        }
        if (!(v instanceof PyDict d)) return;
        if (d.get("tool_calls") instanceof PyList l) {
            collect(l, calls, turn, known);
            return;
        }
        PyDict call = d.get("function") instanceof PyDict f ? f : d;
        String name = call.get("name") instanceof PyStr s ? s.value() : null;
        if (name == null && call.get("tool") instanceof PyStr s) name = s.value();
        if (known != null && (name == null || !known.contains(name))) return;
        Value args = call.get("arguments");
        if (args == null) args = call.get("parameters");
        if (args == null) args = call.get("input");
        if (args == null) args = call.get("args");
        String id = id(turn, calls.size());
        if (args == null) args = PyDict.empty(); // a call of a tool without parameters may leave them out
        if (args instanceof PyStr s) calls.add(Wire.fromArgumentText(id, name, s.value()));
        else calls.add(Wire.fromArgumentValue(id, name, args));
    }

    private static ToolCall malformed(String inner, Value parsed, int turn, int i) {
        String why = parsed == null
                ? "the tool call is not valid JSON"
                : "the tool call is a JSON " + typeName(parsed) + " without a tool name";
        return new ToolCall(id(turn, i), "", PyDict.empty(), inner, why);
    }

    private static String typeName(Value v) {
        return v instanceof PyDict ? "object" : v instanceof PyList ? "array" : "value";
    }

    /** The inside of a ```json fence when {@code s} is one, else {@code s}. */
    private static String unfenced(String s) {
        Matcher m = FENCE.matcher(s);
        return m.matches() ? m.group(1).strip() : s;
    }

    private static Value parse(String s) {
        try {
            return Json.parse(s);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The text of a call in the convention, for fakes and tests: {@code <tool_call>{"name":..,"arguments":..}</tool_call>}. */
    public static String encode(ToolCall c) {
        return ClaudeCodePrompt.CALL_OPEN
                + PyJson.dumps(PyDict.of("name", c.name(), "arguments", c.arguments()))
                + ClaudeCodePrompt.CALL_CLOSE;
    }
}
