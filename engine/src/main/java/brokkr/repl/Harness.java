package brokkr.repl;

import brokkr.sandbox.SandboxConfig;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.time.Duration;

/**
 * Which agent harness drives a candidate's model, part of the candidate's content ({@code AgentDef.harness}):
 * {@code reference} (the benchmark's own agent: one model step per protocol step; the empty value,
 * so candidates defined before harnesses existed keep their ids), {@code loop} (Brokkr's agent
 * loop, {@link brokkr.agent.YieldingLoop}) with its settings: the REPL's guidance and limits when the
 * action space is {@code repl}, the model steps one customer turn may take; or {@code claude-code}
 * (the Claude Code CLI runs its own loop, the domain's tools reaching it over MCP; action space
 * {@code tools} only, its one setting the model steps one turn may take, the CLI's {@code --max-turns}).
 *
 * @param replGuidance null unless the action space is the REPL
 * @param sandbox how the REPL's sandbox is contained: bubblewrap unless {@code harness_options} ask for
 *     {@code sandbox: process} by name (then part of the candidate's content, so every attempt records it)
 */
public record Harness(
        String kind,
        ReplGuidance replGuidance,
        int maxTurnSteps,
        int outputLimit,
        int evalTimeoutSeconds,
        int heapMb,
        SandboxConfig.Isolation sandbox) {
    public static final String REFERENCE = "reference";
    public static final String LOOP = "loop";
    public static final String CLAUDE_CODE = "claude-code";
    public static final String REPL = "repl";

    public static final Harness DEFAULT_REFERENCE =
            new Harness(REFERENCE, null, 0, 0, 0, 0, SandboxConfig.Isolation.BWRAP);

    /** Keys of a harness value besides {@code harness}. */
    public static final String REPL_GUIDANCE = "repl_guidance",
            MAX_TURN_STEPS = "max_turn_steps",
            OUTPUT_LIMIT = "output_limit",
            EVAL_TIMEOUT_SECONDS = "eval_timeout_seconds",
            HEAP_MB = "heap_mb",
            SANDBOX = "sandbox";

    public boolean loop() {
        return kind.equals(LOOP);
    }

    /** Claude Code runs the agent's loop; the domain's tools reach it only over MCP. */
    public boolean claudeCode() {
        return kind.equals(CLAUDE_CODE);
    }

    /**
     * The harness of a candidate from its experiment-file keys ({@code harness}, {@code repl_guidance},
     * {@code harness_options}) and action space; IllegalArgumentException for a bad combination.
     */
    public static Harness of(String kind, String actionSpace, String replGuidance, PyDict options) {
        if (kind == null || kind.equals(REFERENCE)) {
            if (replGuidance != null || !options.isEmpty())
                throw new IllegalArgumentException(
                        "repl_guidance and harness_options need harness: loop (or claude-code for harness_options)");
            return DEFAULT_REFERENCE;
        }
        if (kind.equals(CLAUDE_CODE)) return claudeCode(actionSpace, replGuidance, options);
        if (!kind.equals(LOOP))
            throw new IllegalArgumentException("unknown harness '" + kind + "' (reference, loop, claude-code)");
        boolean repl = actionSpace.equals(REPL);
        // prompting: a domain's text-only mode (BFCL's prompting models); each domain's AgentInterface says if it hosts
        // it.
        if (!repl && !actionSpace.equals("tools") && !actionSpace.equals("prompting"))
            throw new IllegalArgumentException(
                    "harness loop takes action_space tools, repl or prompting, not '" + actionSpace + "'");
        if (!repl && replGuidance != null) throw new IllegalArgumentException("repl_guidance needs action_space: repl");
        ReplGuidance g = repl ? ReplGuidance.of(replGuidance == null ? ReplGuidance.SHAPE.id() : replGuidance) : null;
        int steps = 30, limit = 4000, timeout = 10, heap = 256;
        SandboxConfig.Isolation sandbox = SandboxConfig.Isolation.BWRAP;
        for (var e : options.entries()) {
            if (e.getKey().equals(SANDBOX)) {
                if (!repl) throw new IllegalArgumentException("harness option sandbox is a REPL option");
                if (!(e.getValue() instanceof PyStr name))
                    throw new IllegalArgumentException("harness option sandbox must be bwrap or process");
                sandbox = SandboxConfig.Isolation.ofOption(name.value());
                continue;
            }
            int v = positive(e.getKey(), e.getValue());
            switch (e.getKey()) {
                case MAX_TURN_STEPS -> steps = v;
                case OUTPUT_LIMIT -> limit = v;
                case EVAL_TIMEOUT_SECONDS -> timeout = v;
                case HEAP_MB -> heap = v;
                default ->
                    throw new IllegalArgumentException("unknown harness option '" + e.getKey() + "' (known: "
                            + String.join(", ", MAX_TURN_STEPS, OUTPUT_LIMIT, EVAL_TIMEOUT_SECONDS, HEAP_MB, SANDBOX)
                            + ")");
            }
        }
        // The sandbox's own range (SandboxConfig): checked here, so a spec is refused up front instead of
        // every cell failing when its sandbox starts.
        if (heap < SandboxConfig.MIN_HEAP_MB || heap > SandboxConfig.MAX_HEAP_MB)
            throw new IllegalArgumentException("harness option " + HEAP_MB + " must be a whole number from "
                    + SandboxConfig.MIN_HEAP_MB + " to " + SandboxConfig.MAX_HEAP_MB + ", got " + heap);
        if (!repl && (limit != 4000 || timeout != 10 || heap != 256))
            throw new IllegalArgumentException("output_limit, eval_timeout_seconds and heap_mb are REPL options");
        return repl
                ? new Harness(LOOP, g, steps, limit, timeout, heap, sandbox)
                : new Harness(LOOP, null, steps, 0, 0, 0, SandboxConfig.Isolation.BWRAP);
    }

    /** Default for the model steps of one turn under Claude Code: the loop's default. */
    private static final int DEFAULT_TURN_STEPS = 30;

    private static Harness claudeCode(String actionSpace, String replGuidance, PyDict options) {
        // Claude Code's own loop acts only through the domain's tools (MCP); it has no REPL of Brokkr's.
        if (!actionSpace.equals("tools"))
            throw new IllegalArgumentException(
                    "harness claude-code takes action_space tools (the domain's tools over MCP), not '" + actionSpace
                            + "'");
        if (replGuidance != null) throw new IllegalArgumentException("repl_guidance needs harness: loop");
        int steps = DEFAULT_TURN_STEPS;
        for (var e : options.entries()) {
            if (!e.getKey().equals(MAX_TURN_STEPS))
                throw new IllegalArgumentException("unknown harness option '" + e.getKey()
                        + "' for harness claude-code (known: " + MAX_TURN_STEPS + ")");
            steps = positive(e.getKey(), e.getValue());
        }
        return new Harness(CLAUDE_CODE, null, steps, 0, 0, 0, SandboxConfig.Isolation.BWRAP);
    }

    private static int positive(String key, Value v) {
        if (v instanceof PyInt i && i.longValue() >= 1 && i.longValue() <= 1_000_000) return (int) i.longValue();
        throw new IllegalArgumentException("harness option " + key + " must be a whole number from 1 to 1000000");
    }

    /** The content value: empty for the reference harness, every setting for the loop and Claude Code. */
    public PyDict toValue() {
        if (claudeCode())
            return PyDict.builder()
                    .put("harness", CLAUDE_CODE)
                    .put(MAX_TURN_STEPS, maxTurnSteps)
                    .build();
        if (!loop()) return PyDict.empty();
        PyDict.Builder b = PyDict.builder().put("harness", LOOP).put(MAX_TURN_STEPS, maxTurnSteps);
        if (replGuidance != null) {
            b.put(REPL_GUIDANCE, replGuidance.id())
                    .put(OUTPUT_LIMIT, outputLimit)
                    .put(EVAL_TIMEOUT_SECONDS, evalTimeoutSeconds)
                    .put(HEAP_MB, heapMb);
            // Only when asked for: the content (and so the id) of every other candidate stays as it was.
            if (sandbox == SandboxConfig.Isolation.PROCESS) b.put(SANDBOX, sandbox.option());
        }
        return b.build();
    }

    public static Harness fromValue(PyDict v) {
        if (v == null || v.isEmpty()) return DEFAULT_REFERENCE;
        ReplGuidance g = v.get(REPL_GUIDANCE) instanceof PyStr s ? ReplGuidance.of(s.value()) : null;
        return new Harness(
                v.get("harness").asStr(),
                g,
                num(v, MAX_TURN_STEPS),
                num(v, OUTPUT_LIMIT),
                num(v, EVAL_TIMEOUT_SECONDS),
                num(v, HEAP_MB),
                v.get(SANDBOX) instanceof PyStr s
                        ? SandboxConfig.Isolation.ofOption(s.value())
                        : SandboxConfig.Isolation.BWRAP);
    }

    private static int num(PyDict v, String k) {
        return v.get(k) instanceof PyInt i ? (int) i.longValue() : 0;
    }

    public Duration evalTimeout() {
        return Duration.ofSeconds(evalTimeoutSeconds);
    }

    /**
     * The sandbox a REPL harness runs its snippets in: its heap and time limits, output kept well beyond what
     * the model is shown, and its containment (bubblewrap unless {@code sandbox: process} was asked for).
     */
    public SandboxConfig sandboxConfig() {
        return new SandboxConfig(heapMb, evalTimeout(), Math.max(outputLimit * 4, 65536), sandbox);
    }

    /**
     * The harness a {@link #label()} names, with default settings: {@code reference}, {@code loop/tools},
     * {@code loop/repl} (guidance {@code shape}) or {@code loop/repl:GUIDANCE}, {@code claude-code};
     * IllegalArgumentException naming the forms for anything else.
     */
    public static Harness ofLabel(String label) {
        String l = label == null ? "" : label.strip();
        if (l.equals(REFERENCE)) return DEFAULT_REFERENCE;
        if (l.equals(CLAUDE_CODE)) return of(CLAUDE_CODE, "tools", null, PyDict.empty());
        if (l.equals(LOOP + "/tools")) return of(LOOP, "tools", null, PyDict.empty());
        if (l.equals(LOOP + "/" + REPL)) return of(LOOP, REPL, null, PyDict.empty());
        if (l.startsWith(LOOP + "/" + REPL + ":"))
            return of(LOOP, REPL, l.substring((LOOP + "/" + REPL + ":").length()), PyDict.empty());
        throw new IllegalArgumentException("unknown harness '" + label + "' (reference, loop/tools, loop/repl:GUIDANCE"
                + " with GUIDANCE one of " + String.join(", ", ReplGuidance.names()) + ", claude-code)");
    }

    /** A short label: {@code reference}, {@code loop/tools}, {@code loop/repl:shape}, {@code claude-code}. */
    public String label() {
        if (claudeCode()) return CLAUDE_CODE;
        return !loop() ? REFERENCE : replGuidance == null ? "loop/tools" : "loop/repl:" + replGuidance.id();
    }
}
