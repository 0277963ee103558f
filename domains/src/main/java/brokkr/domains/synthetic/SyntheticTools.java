package brokkr.domains.synthetic;

import brokkr.agent.ToolHandler;
import brokkr.agent.ToolResult;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.python.PyJson;
import brokkr.tool.ToolSet;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the two synthetic benchmarks share: a read-only world served through a {@link ToolSet}, and
 * the wording of their results. Errors read {@code ERROR: ...} as in zsmith's benchmark tools
 * (zsmith benchmark/control/PointerChasingTool.execute and LookupTool.execute).
 */
public final class SyntheticTools {
    private SyntheticTools() {}

    /** Lowercase letters and digits without the look-alikes (0/o, 1/l/i): tokens a model copies reliably. */
    public static final String ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

    public static String token(SplittableRandom random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        return sb.toString();
    }

    /**
     * Serves the tools of {@code tools} on a world no call changes (the chain, the table), so calls
     * may run concurrently. A tool's string result is the tool message; a raised error or a binding
     * error (missing or unexpected argument) is {@code ERROR: <message>}; an unknown tool name too.
     */
    /** The schema both synthetic tools share: one required string parameter. */
    public static ToolSpec oneStringParam(String tool, String description, String param, String paramDescription) {
        return new ToolSpec(
                tool,
                description,
                PyDict.of(
                        "type",
                        "object",
                        "properties",
                        PyDict.of(param, PyDict.of("type", "string", "description", paramDescription)),
                        "required",
                        PyList.of(new PyStr(param))));
    }

    public static ToolHandler readOnly(ToolSet tools, Value world) {
        return call -> switch (tools.dispatch(world, call.name(), call.arguments())) {
            case ToolSet.Outcome.Ok ok -> ToolResult.ok(text(ok.result()));
            case ToolSet.Outcome.Failed f ->
                ToolResult.error("ERROR: " + f.error().str());
            case ToolSet.Outcome.Unknown u -> ToolResult.error("ERROR: unknown tool '" + u.name() + "'.");
        };
    }

    /** A tool argument as the text a tool keyed by strings sees: a string as is, anything else as its JSON. */
    public static String text(Value v) {
        return v instanceof PyStr s ? s.value() : PyJson.dumps(v);
    }

    /** The calls of {@code name} in a conversation, each with the tool message answering it (null if none). */
    public record Answered(ToolCall call, Message.Tool result) {
        public boolean ok() {
            return result != null && !result.error();
        }
    }

    public static List<Answered> answeredCalls(List<Message> history, String name) {
        List<Answered> out = new ArrayList<>();
        for (int i = 0; i < history.size(); i++) {
            if (!(history.get(i) instanceof Message.Assistant a)) continue;
            // The tool messages of a turn follow their assistant message, in call order.
            int j = i + 1;
            for (ToolCall c : a.toolCalls()) {
                Message.Tool result = j < history.size() && history.get(j) instanceof Message.Tool t ? t : null;
                if (result != null) j++;
                if (c.name().equals(name)) out.add(new Answered(c, result));
            }
        }
        return out;
    }

    /** A fresh id for a scripted tool call, unique within a conversation of fewer than 10^6 calls. */
    public static String callId(int n) {
        return "call_" + n;
    }
}
