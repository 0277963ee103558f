package brokkr.domains.bfcl;

import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a candidate is given for a task (the opening messages and the compiled tools) and how its
 * one response becomes the decoded answer the checker grades: upstream's function-calling handlers
 * decode {@code [{name: json.loads(arguments)} for each tool call]}; a response without tool calls
 * is text, which the AST decoder cannot read (and which counts as "no call" for relevance).
 */
public final class BfclHarness {
    private BfclHarness() {}

    /** A decoded answer, or the reason decoding failed. */
    public record Answer(PyObj decoded, String decodeError) {
        public static Answer of(PyObj decoded) {
            return new Answer(decoded, null);
        }

        public static Answer failed(String why) {
            return new Answer(null, why);
        }
    }

    /** The task's single turn ({@code question[0]}) as messages. */
    public static List<Message> opening(BfclTask task) {
        List<Message> out = new ArrayList<>();
        PyList turns = task.question().asList();
        for (Value m : turns.get(0).asList()) {
            PyDict d = m.asDict();
            String role = d.get("role").asStr();
            String content = d.get("content").asStr();
            out.add(
                    switch (role) {
                        case "system" -> new Message.System(content);
                        case "assistant" -> new Message.Assistant(content);
                        default -> new Message.User(content);
                    });
        }
        return out;
    }

    /**
     * The opening with a candidate's own system prompt: before the task's system message (joined by a
     * blank line) or as a new first message when the task has none.
     */
    public static List<Message> opening(BfclTask task, String systemPrompt) {
        List<Message> opening = opening(task);
        if (systemPrompt == null) return opening;
        List<Message> out = new ArrayList<>(opening);
        if (!out.isEmpty() && out.getFirst() instanceof Message.System s)
            out.set(0, new Message.System(systemPrompt + "\n\n" + s.content()));
        else out.addFirst(new Message.System(systemPrompt));
        return out;
    }

    /**
     * The tools a function-calling model is given, in the compiled shape of {@code style}. A
     * {@link ToolSpec} carries name, description and parameters only: upstream's OpenAI styles also keep
     * a function's {@code response} field, which does not reach the OpenAI wire here (2 in-scope tasks
     * have one: live_irrelevance_747-258-0, live_multiple_985-216-0); the Anthropic style folds it into
     * the description and is complete.
     */
    public static List<ToolSpec> tools(BfclTask task, ToolCompiler.Style style) {
        PyList compiled = ToolCompiler.compile(
                ToolCompiler.modelFunctions(task.functions(), task.category().language()), style);
        List<ToolSpec> out = new ArrayList<>(compiled.size());
        for (Value v : compiled) {
            PyDict f = v.asDict();
            if (style == ToolCompiler.Style.OPENAI_COMPLETIONS)
                f = f.get("function").asDict();
            PyDict schema =
                    (style == ToolCompiler.Style.ANTHROPIC ? f.get("input_schema") : f.get("parameters")).asDict();
            out.add(new ToolSpec(f.get("name").asStr(), f.get("description").asStr(), schema));
        }
        return out;
    }

    /** Upstream's FC decode of one assistant message. */
    public static Answer decode(Message.Assistant reply) {
        if (!reply.hasToolCalls())
            return Answer.failed("the response has no function call (text: " + reply.content() + ")");
        List<PyObj> calls = new ArrayList<>();
        for (ToolCall c : reply.toolCalls()) {
            if (c.isMalformed())
                return Answer.failed("arguments of " + c.name() + " are not a JSON object: " + c.malformed());
            Map<String, PyObj> call = new LinkedHashMap<>();
            call.put(c.name(), PyObj.ofValue(c.arguments()));
            calls.add(new PyObj.Dict(call));
        }
        return Answer.of(PyObj.list(calls));
    }

    /** The verdict of an answer; a decode failure is upstream's {@code ast_decoder:decoder_failed} (eval_runner.py). */
    public static BfclGrader.Verdict grade(BfclTask task, Answer answer, boolean underscoreToDot) {
        if (answer.decoded() != null) return BfclGrader.grade(task, answer.decoded(), underscoreToDot);
        if (task.category().relevance()) return BfclGrader.relevance(task.category(), PyObj.list(List.of()));
        return new BfclGrader.Verdict(
                false,
                "ast_decoder:decoder_failed",
                List.of(PyObj.str("Invalid syntax. Failed to decode AST. " + answer.decodeError())),
                null);
    }
}
