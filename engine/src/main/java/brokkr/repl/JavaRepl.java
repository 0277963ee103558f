package brokkr.repl;

import brokkr.agent.YieldingLoop;
import brokkr.conversation.Message;
import brokkr.conversation.ToolCall;
import brokkr.conversation.ToolSpec;
import brokkr.provider.EnvironmentKeys;
import brokkr.sandbox.MiniJson;
import brokkr.sandbox.Sandbox;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The REPL action space: one tool, {@value #TOOL}{@code (code)}, whose calls are evaluated in the
 * episode's {@link Sandbox}. A domain tool called by the snippet (through the {@link JavaApi} evaluated
 * first) is made on the protocol's side as that tool's own call, so it is recorded and graded as if
 * the model had called the JSON tool. The tool result is the snippet's printed output, then its last
 * expression's value ({@code => value}), then its error, cut at {@code outputLimit} characters with a
 * marker saying how much was left out.
 *
 * @param recorder when not null, every domain call is also given to it (BFCL's emitted calls)
 */
public record JavaRepl(
        Sandbox sandbox, JavaApi api, Set<String> toolNames, int outputLimit, String stub, Consumer<ToolCall> recorder)
        implements YieldingLoop.Actions {
    public static final String TOOL = "java_eval";

    public static final ToolSpec SPEC = new ToolSpec(
            TOOL,
            "Evaluates Java code (JShell snippets: statements, expressions, method and class declarations) in this "
                    + "conversation's sandbox, which keeps variables, methods and classes between calls. Returns what the code "
                    + "printed and the value of its last expression, or the compile error or exception.",
            PyDict.of(
                    "type",
                    "object",
                    "properties",
                    PyDict.of("code", PyDict.of("type", "string", "description", "The Java code to evaluate.")),
                    "required",
                    brokkr.value.PyList.of(List.of(new PyStr("code")))));

    /** Starts the REPL on {@code sandbox}: evaluates the API there (kept across resets). */
    public static JavaRepl open(
            Sandbox sandbox,
            JavaApi api,
            List<ToolSpec> tools,
            int outputLimit,
            String stub,
            Consumer<ToolCall> recorder) {
        sandbox.prelude(api.source(), Sandbox.CallHandler.NONE);
        return new JavaRepl(
                sandbox, api, Set.copyOf(tools.stream().map(ToolSpec::name).toList()), outputLimit, stub, recorder);
    }

    /**
     * What a REPL prompt says about the action space itself (tau2's and BFCL multi-turn's): the one tool, the
     * sandbox keeping state for the conversation, what a result holds, the output and time limits.
     */
    public static String actionSpaceText(Harness h) {
        return "You have one tool, " + TOOL + "(code). It evaluates Java (JShell snippets: statements, expressions, "
                + "method and class declarations) in a sandbox that keeps your variables, methods and classes for this "
                + "whole conversation. It returns what the code printed and the value of the last expression (after \"=> \"), "
                + "or the compile error or exception; output longer than " + h.outputLimit() + " characters is cut. "
                + "Each evaluation may take at most " + h.evalTimeoutSeconds() + " s.\n";
    }

    /**
     * This REPL with more tools, for a protocol that offers tools later (BFCL multi-turn's held-out functions):
     * their methods ({@code more}) are evaluated in the sandbox now and kept across resets, and the names become
     * callable.
     */
    public JavaRepl with(JavaApi more, List<ToolSpec> tools) {
        sandbox.prelude(more.source(), Sandbox.CallHandler.NONE);
        Set<String> names = new java.util.HashSet<>(toolNames);
        for (ToolSpec t : tools) names.add(t.name());
        return new JavaRepl(sandbox, api.plus(more), Set.copyOf(names), outputLimit, stub, recorder);
    }

    @Override
    public List<ToolSpec> tools(List<ToolSpec> protocolTools) {
        return List.of(SPEC);
    }

    @Override
    public List<Message.Tool> execute(
            List<ToolCall> calls, Message.Assistant message, YieldingLoop.ProtocolCalls protocol) {
        List<Message.Tool> out = new ArrayList<>();
        for (ToolCall c : calls) {
            if (!c.name().equals(TOOL)) {
                out.add(new Message.Tool(
                        c.id(),
                        c.name(),
                        "Error: there is no tool " + c.name() + "; the only tool is " + TOOL
                                + "(code), and the domain's tools are Java methods inside it",
                        true));
                continue;
            }
            Value code = c.arguments().get("code");
            if (!(code instanceof PyStr s)) {
                out.add(new Message.Tool(
                        c.id(), c.name(), "Error: " + TOOL + " takes one argument, code (a string of Java)", true));
                continue;
            }
            Sandbox.EvalResult r = sandbox.evaluate(s.value(), (name, args) -> call(name, args, protocol));
            // A snippet may print what it can read: no key of the harness's environment reaches the model or the store.
            String shown = EnvironmentKeys.process().redact(render(r, outputLimit));
            out.add(new Message.Tool(c.id(), c.name(), shown, !r.ok()));
        }
        return out;
    }

    private String call(String name, Map<String, Object> args, YieldingLoop.ProtocolCalls protocol) {
        if (!toolNames.contains(name)) throw new IllegalArgumentException("there is no tool named " + name);
        // Through JSON text: Java integers arrive as Python ints, doubles as floats.
        PyDict arguments = Value.of(MiniJson.parse(MiniJson.write(args))).asDict();
        ToolCall call = new ToolCall(null, name, arguments, brokkr.python.PyJson.dumps(arguments), null);
        if (recorder != null) {
            recorder.accept(call);
            return stub;
        }
        List<Message.Tool> results = protocol.call(new Message.Assistant(null, List.of(call)));
        return results.getFirst().content();
    }

    /** What the model reads for one evaluation. */
    public static String render(Sandbox.EvalResult r, int limit) {
        StringBuilder b = new StringBuilder(r.output());
        long dropped = Math.max(0, r.outputChars() - r.output().length());
        if (r.value() != null) {
            if (!b.isEmpty() && b.charAt(b.length() - 1) != '\n') b.append('\n');
            b.append("=> ").append(r.value());
        }
        if (r.error() != null) {
            if (!b.isEmpty() && b.charAt(b.length() - 1) != '\n') b.append('\n');
            b.append(
                            switch (r.error().kind()) {
                                case COMPILE -> "Compile error: ";
                                case EXCEPTION -> "Exception: ";
                                case TIMEOUT -> "Timeout: ";
                                case EXITED -> "Sandbox ended: ";
                                case LEFTOVER_THREAD -> "Thread left running: ";
                                case PROTOCOL -> "Sandbox error: ";
                            })
                    .append(r.error().message());
        }
        if (b.isEmpty()) b.append("(no output)");
        if (b.length() > limit || dropped > 0) {
            long cut = Math.max(0, b.length() - limit) + dropped;
            String kept = b.length() > limit ? b.substring(0, limit) : b.toString();
            return kept + "\n...[output truncated: " + cut + " more characters]";
        }
        return b.toString();
    }

    @Override
    public void close() {
        sandbox.close();
    }
}
