package brokkr.domains.tau2.harness;

import brokkr.agent.YieldingLoop;
import brokkr.agent.claudecode.ClaudeCodeLoop;
import brokkr.conversation.Candidate;
import brokkr.conversation.ToolSpec;
import brokkr.eval.Interaction;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.repl.ReplGuidance;
import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxPool;
import brokkr.sandbox.TypeText;
import brokkr.tool.ResultTypes;
import java.util.List;

/**
 * The tau2 agent under a {@link Harness}: the reference agent as it is, Brokkr's agent loop
 * ({@link YieldingLoop}) in one working conversation per episode, acting through the domain's JSON
 * tools ({@code action_space: tools}) or through Java in a sandbox ({@code repl}: the tools as methods
 * of {@code tau2}), or the Claude Code CLI's own loop ({@link ClaudeCodeLoop}: one persistent session per
 * episode, each agent turn one user message into it, the tools over MCP as {@code mcp__brokkr__TOOL}).
 * Every domain call is made on the orchestrator's side as the tool's own call, so the trajectory, step and
 * error counts and grading are those of the JSON tools.
 */
public final class Tau2Harness {
    private Tau2Harness() {}

    /** The object the domain's tools are methods of in a REPL snippet. */
    public static final String NAMESPACE = "tau2";

    /** The agent as the orchestrator drives it, its system prompt, and what to close when the episode ends. */
    public record Agent(Candidate candidate, String systemPrompt, AutoCloseable resources) {}

    /**
     * The agent under {@code h}: the reference agent and the loop drive {@code counter.wrap(model)}; under
     * {@code claude-code} the CLI {@code model} names runs its own loop ({@link ClaudeCodeLoop}), every call it
     * makes over MCP handed to the orchestrator as the tool's own call, its model steps reported to {@code counter}.
     */
    public static Agent of(
            Harness h,
            Interaction.Counter counter,
            Candidate model,
            String systemPrompt,
            List<ToolSpec> tools,
            ResultTypes types) {
        if (!h.claudeCode()) return of(h, counter.wrap(model), systemPrompt, tools, types);
        ClaudeCodeLoop cc = ClaudeCodeLoop.of(model, systemPrompt, h.maxTurnSteps(), counter::steps);
        return new Agent(cc, systemPrompt, cc);
    }

    /** As above; {@code types} are the tools' result types a REPL's {@code tau2.doc}, {@code types()} and {@code check} tell (null: none). */
    public static Agent of(Harness h, Candidate model, String systemPrompt, List<ToolSpec> tools, ResultTypes types) {
        if (h.claudeCode())
            throw new IllegalArgumentException("harness claude-code needs the step counter: of(h, counter, ...)");
        if (!h.loop()) return new Agent(model, systemPrompt, () -> {});
        if (h.replGuidance() == null) {
            YieldingLoop loop =
                    new YieldingLoop(model, systemPrompt, YieldingLoop.Actions.PROTOCOL_TOOLS, h.maxTurnSteps());
            return new Agent(loop, systemPrompt, loop);
        }
        JavaApi api = api(tools, types);
        String prompt = systemPrompt + "\n\n" + replPrompt(h, api, tools, types);
        Sandbox sandbox = SandboxPool.shared(h.sandboxConfig()).acquire();
        JavaRepl repl;
        try {
            repl = JavaRepl.open(sandbox, api, tools, h.outputLimit(), null, null);
        } catch (RuntimeException e) {
            sandbox.close();
            throw e;
        }
        YieldingLoop loop = new YieldingLoop(model, prompt, repl, h.maxTurnSteps());
        return new Agent(loop, prompt, loop);
    }

    public static JavaApi api(List<ToolSpec> tools, ResultTypes types) {
        return JavaApi.namespace(NAMESPACE, "Tau2Tools", tools, types);
    }

    /** What the REPL candidate is told beyond the domain's policy: the action space, the guidance, every tool as Java. */
    public static String replPrompt(Harness h, JavaApi api, List<ToolSpec> tools, ResultTypes types) {
        if (h.replGuidance() != ReplGuidance.TYPED) return replPrompt(h, api);
        if (types == null) throw new IllegalArgumentException("repl_guidance typed needs the domain's result types");
        StringBuilder shown = new StringBuilder("\n## Result types\n");
        for (ToolSpec t : tools) {
            var type = types.type("assistant", t.name());
            if (type != null)
                shown.append(t.name())
                        .append(" returns ")
                        .append(TypeText.render(type))
                        .append('\n');
        }
        types.defs()
                .forEach((name, def) -> shown.append(name)
                        .append(" = ")
                        .append(TypeText.render((java.util.Map<?, ?>) def))
                        .append('\n'));
        return replPrompt(h, api) + shown;
    }

    /** The prompt of {@link #replPrompt(Harness, JavaApi, List, ResultTypes)} without result types. */
    public static String replPrompt(Harness h, JavaApi api) {
        return "# How you act\n" + JavaRepl.actionSpaceText(h)
                + "The domain's tools are methods of the object `" + NAMESPACE
                + "`; each call is made at once, is one tool call "
                + "of yours (writes change the database as the tool would), and returns the tool's result text exactly as the "
                + "tool gives it (usually JSON; an error result is its text, often starting with \"Error\"). "
                + NAMESPACE + ".parse(text) turns JSON text into maps, lists, strings, numbers and booleans; "
                + NAMESPACE + ".shape(x) gives a compact summary of a value's structure; " + NAMESPACE
                + ".doc(\"name\") a tool's "
                + "description; " + NAMESPACE + ".tools() the tool names; " + NAMESPACE
                + ".call(\"name\", map(...)) calls a tool "
                + "by name with keyword arguments. map(k1, v1, ...) and list(...) build maps and lists. java.util, "
                + "java.util.stream and java.math are imported.\n"
                + "To talk to the user, answer with text (no tool call).\n\n"
                + "## Guidance\n" + h.replGuidance().text(NAMESPACE + ".") + "\n\n"
                + "## Tools (Java methods of " + NAMESPACE + ")\n" + api.reference();
    }
}
