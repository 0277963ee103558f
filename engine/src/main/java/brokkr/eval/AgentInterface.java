package brokkr.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a benchmark offers an agent, and so which harnesses can drive one on it: the shape of its
 * interaction ({@link Shape}) and, per harness ({@code reference}: the benchmark's own agent;
 * {@code loop}: Brokkr's agent loop; {@code claude-code}: the Claude Code CLI's own loop, acting through
 * the domain's tools over MCP), the action spaces it hosts ({@code tools}, {@code repl},
 * {@code reference}). A planner refuses a candidate whose harness and action space its domain does not
 * list, before any cell runs, naming what is supported: a harness a protocol cannot host must never
 * run as something else and be scored.
 */
public record AgentInterface(Shape shape, Map<String, List<String>> harnesses) {
    /** How the benchmark's interaction goes from the agent's side. */
    public enum Shape {
        /** One model step answers the task (BFCL single-turn). */
        ONE_STEP,
        /** Fixed user turns, each answered by as many steps as the agent takes (BFCL multi-turn, the synthetic loops). */
        USER_TURNS,
        /** A conversation with a simulated user who reacts to the agent (tau2). */
        CONVERSATION
    }

    public static final String REFERENCE = "reference", LOOP = "loop", CLAUDE_CODE = "claude-code";

    public AgentInterface {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        harnesses.forEach((h, spaces) -> copy.put(h, List.copyOf(spaces)));
        harnesses = java.util.Collections.unmodifiableMap(copy);
        if (harnesses.isEmpty()) throw new IllegalArgumentException("a benchmark supports at least one harness");
    }

    /** Only the benchmark's own agent with JSON tools: what a benchmark supports unless it says more. */
    public static AgentInterface referenceTools(Shape shape) {
        return new AgentInterface(shape, Map.of(REFERENCE, List.of("tools")));
    }

    /** The reference agent with tools, and Brokkr's loop with tools or the Java REPL. */
    public static AgentInterface referenceAndLoop(Shape shape, List<String> referenceSpaces) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put(REFERENCE, referenceSpaces);
        m.put(LOOP, List.of("tools", "repl"));
        return new AgentInterface(shape, m);
    }

    /** This interface and Claude Code's loop with the domain's tools (over MCP): a protocol that can host it. */
    public AgentInterface withClaudeCode() {
        Map<String, List<String>> m = new LinkedHashMap<>(harnesses);
        m.put(CLAUDE_CODE, List.of("tools"));
        return new AgentInterface(shape, m);
    }

    public boolean supports(String harness, String actionSpace) {
        List<String> spaces = harnesses.get(harness);
        return spaces != null && spaces.contains(actionSpace);
    }

    /** The supported combinations as a person reads them: {@code harness reference with action space tools; harness loop with tools or repl}. */
    public String described() {
        List<String> parts = new ArrayList<>();
        harnesses.forEach(
                (h, spaces) -> parts.add("harness " + h + " with action space " + String.join(" or ", spaces)));
        return String.join("; ", parts);
    }

    /** Every action space of any harness. */
    public Set<String> actionSpaces() {
        Set<String> out = new java.util.LinkedHashSet<>();
        harnesses.values().forEach(out::addAll);
        return out;
    }
}
