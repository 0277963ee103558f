package brokkr.domains.wiki;

import brokkr.agent.YieldingLoop;
import brokkr.conversation.Candidate;
import brokkr.repl.Harness;
import brokkr.repl.JavaApi;
import brokkr.repl.JavaRepl;
import brokkr.sandbox.Sandbox;
import brokkr.sandbox.SandboxPool;

/**
 * The wiki agent under {@code harness: loop}: Brokkr's agent loop ({@link YieldingLoop}) in its own working
 * conversation, acting through the file tools as JSON tools ({@code action_space: tools}) or through Java in a
 * sandbox ({@code repl}: the tools as methods of {@code wiki}, e.g. {@code wiki.read_file("/docs/charter.md")}).
 * Either way every file call reaches the protocol as that tool's own call, one assistant message of the
 * protocol's transcript, so the workspace, the replay of a record, checkpoints after the k-th call and the grade
 * are those of the JSON tools. The task is one user message, so the harness's {@code max_turn_steps} bounds the
 * model steps of the whole attempt.
 */
final class WikiHarness {
    private WikiHarness() {}

    /** The object the file tools are methods of in a REPL snippet. */
    static final String NAMESPACE = "wiki";

    static final JavaApi API = JavaApi.namespace(NAMESPACE, "WikiFiles", WikiTools.SPECS);

    /**
     * The loop over {@code model} under {@code h}, told {@code systemPrompt} (and, for the REPL, how to act in
     * Java); the caller closes it when the attempt ends (it holds a thread, and a sandbox JVM for the REPL).
     */
    static YieldingLoop loop(Harness h, String actionSpace, Candidate model, String systemPrompt) {
        if (!h.loop()) throw new IllegalArgumentException("WikiHarness runs harness loop, not " + h.label());
        boolean repl = actionSpace.equals(Harness.REPL);
        if (repl != (h.replGuidance() != null))
            throw new IllegalArgumentException(
                    "harness " + h.label() + " does not go with action_space " + actionSpace);
        if (!repl) return new YieldingLoop(model, systemPrompt, YieldingLoop.Actions.PROTOCOL_TOOLS, h.maxTurnSteps());
        String prompt = systemPrompt + "\n\n" + replPrompt(h);
        Sandbox sandbox = SandboxPool.shared(h.sandboxConfig()).acquire();
        JavaRepl r;
        try {
            r = JavaRepl.open(sandbox, API, WikiTools.SPECS, h.outputLimit(), null, null);
        } catch (RuntimeException e) {
            sandbox.close();
            throw e;
        }
        return new YieldingLoop(model, prompt, r, h.maxTurnSteps());
    }

    /** What the REPL candidate is told beyond the task: the action space, the guidance, every file tool as Java. */
    static String replPrompt(Harness h) {
        return "# How you act\n" + JavaRepl.actionSpaceText(h)
                + "The file tools are methods of the object `" + NAMESPACE
                + "`; each call is made at once, is one tool "
                + "call of yours (write_file and edit_file change the workspace as the tool would), and returns the "
                + "tool's result text exactly as the tool gives it (a failed call's text starts with \"ERROR\"). "
                + NAMESPACE + ".doc(\"name\") gives a tool's description, " + NAMESPACE + ".tools() the tool names, "
                + NAMESPACE + ".call(\"name\", map(...)) calls a tool by name with keyword arguments; "
                + NAMESPACE + ".shape(x) and " + NAMESPACE + ".parse(json) are there too. java.util, java.util.stream "
                + "and java.math are imported.\n"
                + "When the wiki is complete, answer with text (no tool call).\n\n"
                + "## Guidance\n" + h.replGuidance().untypedText(NAMESPACE + ".", "the wiki's file tools") + "\n\n"
                + "## Tools (Java methods of " + NAMESPACE + ")\n" + API.reference();
    }
}
