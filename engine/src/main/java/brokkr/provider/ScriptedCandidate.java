package brokkr.provider;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.Message;
import brokkr.conversation.ModelCall;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.conversation.Turn;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A programmable candidate for tests and gold replays: a {@link Policy} from the conversation so far
 * to the next assistant message.
 *
 * <p>Each turn records one pseudo {@link ModelCall} as if the policy were an OpenAI-compatible model:
 * the request body an {@link OpenAiChat} provider with the same options would send, status 200, and
 * the Chat Completions response carrying the message. The timestamp and duration are 0, so a replay
 * records the same bytes every time. Tool calls the policy leaves without an id get
 * {@code call_<turn>_<index>}, where {@code turn} counts the assistant messages already in the history:
 * a pure function of the history, so ids are stable across replays.
 */
public final class ScriptedCandidate implements ModelProvider {

    /** The next assistant message for a history (system prompt first) and the tools on offer. */
    @FunctionalInterface
    public interface Policy {
        Message.Assistant next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure;
    }

    private final Policy policy;
    private final ProviderOptions options;

    public ScriptedCandidate(Policy policy, ProviderOptions options) {
        this.policy = Objects.requireNonNull(policy);
        this.options = Objects.requireNonNull(options);
    }

    /** A scripted candidate named {@code scripted}, with default options. */
    public static ScriptedCandidate of(Policy policy) {
        return new ScriptedCandidate(policy, ProviderOptions.defaults("scripted"));
    }

    @Override
    public String provider() {
        return "scripted";
    }

    @Override
    public String model() {
        return options.model();
    }

    @Override
    public Turn next(List<Message> history, List<ToolSpec> tools) throws InfrastructureFailure {
        int turn = assistantTurns(history);
        Message.Assistant m =
                withIds(Objects.requireNonNull(policy.next(history, tools), "policy returned null"), turn);
        String request = OpenAiChat.INSTANCE.encodeRequest(history, tools, options);
        String response = Wire.json(OpenAiChat.encodeResponse(m, options.model(), "scripted-" + turn));
        return new Turn(m, List.of(new ModelCall(provider(), options.model(), 1, request, 200, response, null, 0, 0)));
    }

    static int assistantTurns(List<Message> history) {
        int n = 0;
        for (Message m : history) if (m instanceof Message.Assistant) n++;
        return n;
    }

    private static Message.Assistant withIds(Message.Assistant m, int turn) {
        if (m.toolCalls().stream().allMatch(c -> c.id() != null)) return m;
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < m.toolCalls().size(); i++) {
            ToolCall c = m.toolCalls().get(i);
            calls.add(
                    c.id() != null
                            ? c
                            : new ToolCall(
                                    "call_" + turn + "_" + i,
                                    c.name(),
                                    c.arguments(),
                                    c.rawArguments(),
                                    c.malformed()));
        }
        return new Message.Assistant(m.content(), calls, m.usage());
    }

    // ---- building messages ----

    /** A text-only answer. */
    public static Message.Assistant say(String text) {
        return new Message.Assistant(text);
    }

    /** A tool call with arguments given as alternating keys and plain Java values; its id is assigned per turn. */
    public static ToolCall call(String name, Object... keysAndValues) {
        return new ToolCall(null, name, PyDict.of(keysAndValues));
    }

    public static ToolCall call(String name, PyDict arguments) {
        return new ToolCall(null, name, arguments);
    }

    /**
     * A call whose argument text is {@code rawArguments} verbatim, classified exactly as a provider
     * would classify it (so {@code "{bad"} is a malformed call: an agent error).
     */
    public static ToolCall rawCall(String name, String rawArguments) {
        return Wire.fromArgumentText(null, name, rawArguments);
    }

    /** One assistant message with these calls (several = parallel calls) and no text. */
    public static Message.Assistant calls(ToolCall... calls) {
        return new Message.Assistant(null, List.of(calls));
    }

    /** One assistant message with text and calls. */
    public static Message.Assistant sayAndCall(String text, ToolCall... calls) {
        return new Message.Assistant(text, List.of(calls));
    }

    /**
     * Replays {@code script}: the n-th assistant turn of a conversation is {@code script.get(n)}; once it
     * is exhausted every further turn is {@code whenDone}. A gold replay is a script of the gold
     * actions followed by the final answer.
     */
    public static Policy replay(List<Message.Assistant> script, Message.Assistant whenDone) {
        List<Message.Assistant> s = List.copyOf(script);
        Objects.requireNonNull(whenDone);
        return (history, tools) -> {
            int n = assistantTurns(history);
            return n < s.size() ? s.get(n) : whenDone;
        };
    }

    @Override
    public String toString() {
        return "ScriptedCandidate[model=" + options.model() + "]";
    }
}
