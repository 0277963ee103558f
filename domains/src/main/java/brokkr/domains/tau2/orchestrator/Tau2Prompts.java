package brokkr.domains.tau2.orchestrator;

import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;

/** System prompts of tau2's LLM agent and user simulator, as upstream formats them. */
public final class Tau2Prompts {
    private Tau2Prompts() {}

    /** {@code tau2.agent.llm_agent.AGENT_INSTRUCTION}. */
    public static final String AGENT_INSTRUCTION = """
            You are a customer service agent that helps the user according to the <policy> provided below.
            In each turn you can either:
            - Send a message to the user.
            - Make a tool call.
            You cannot do both at the same time.

            Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.""";

    /** {@code LLMAgent.system_prompt}: {@code SYSTEM_PROMPT.format(domain_policy=..., agent_instruction=...)}. */
    public static String agentSystemPrompt(String policy) {
        return "<instructions>\n" + AGENT_INSTRUCTION + "\n</instructions>\n<policy>\n" + policy + "\n</policy>";
    }

    /**
     * {@code UserSimulator.system_prompt} with the default {@code PersonaConfig()} (no persona guidelines):
     * the global guidelines with {@code <PERSONA_GUIDELINES>} removed, then the scenario.
     *
     * @param guidelines   {@code simulation_guidelines.md} (or {@code _tools.md} when the user has tools)
     * @param userScenario the task's {@code user_scenario} object
     */
    public static String userSystemPrompt(String guidelines, Value userScenario) {
        String g = guidelines.replace("<PERSONA_GUIDELINES>", "");
        return g + "\n\n<scenario>\n" + userScenarioStr(userScenario) + "\n</scenario>";
    }

    /** {@code str(UserScenario)} (src/tau2/data_model/tasks.py). */
    public static String userScenarioStr(Value scenario) {
        PyDict d = scenario.asDict();
        List<String> lines = new ArrayList<>();
        Value persona = d.getOrDefault("persona", PyNone.NONE);
        if (!persona.isNone()) {
            lines.add("Persona:");
            lines.add(indent(persona.asStr(), "\t"));
        }
        lines.add("Instructions:");
        Value instr = d.get("instructions");
        String instrStr = instr instanceof PyStr s ? s.value() : structuredInstructionsStr(instr.asDict());
        lines.add(indent(instrStr, "\t"));
        return String.join("\n", lines);
    }

    /** {@code str(StructuredUserInstructions)}. */
    public static String structuredInstructionsStr(PyDict i) {
        List<String> lines = new ArrayList<>();
        lines.add("Domain: " + i.get("domain").asStr());
        lines.add("Reason for call:\n" + indent(i.get("reason_for_call").asStr(), "\t"));
        Value known = i.getOrDefault("known_info", PyNone.NONE);
        if (!known.isNone()) lines.add("Known info:\n" + indent(known.asStr(), "\t"));
        Value unknown = i.getOrDefault("unknown_info", PyNone.NONE);
        if (!unknown.isNone()) lines.add("Unknown info:\n" + indent(unknown.asStr(), "\t"));
        lines.add("Task instructions:\n" + indent(i.get("task_instructions").asStr(), "\t"));
        return String.join("\n", lines);
    }

    /** {@code textwrap.indent(text, prefix)}: prefix every line (splitlines(keepends)) that is not whitespace only. */
    public static String indent(String text, String prefix) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        for (String line : splitLinesKeepEnds(text)) {
            if (!isSpace(line)) sb.append(prefix);
            sb.append(line);
        }
        return sb.toString();
    }

    /** {@code str.splitlines(True)}: Python's line boundaries, \r\n as one. */
    public static List<String> splitLinesKeepEnds(String s) {
        List<String> out = new ArrayList<>();
        int start = 0, i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (isLineBreak(c)) {
                int end = i + 1;
                if (c == '\r' && end < n && s.charAt(end) == '\n') end++;
                out.add(s.substring(start, end));
                start = i = end;
            } else {
                i++;
            }
        }
        if (start < n) out.add(s.substring(start));
        return out;
    }

    private static boolean isLineBreak(char c) {
        return c == '\n'
                || c == '\r'
                || c == 0x0b
                || c == 0x0c
                || c == 0x1c
                || c == 0x1d
                || c == 0x1e
                || c == 0x85
                || c == 0x2028
                || c == 0x2029;
    }

    /** {@code str.isspace()} (false for the empty string). */
    public static boolean isSpace(String s) {
        if (s.isEmpty()) return false;
        for (int i = 0; i < s.length(); i++) if (!isPyWhitespace(s.charAt(i))) return false;
        return true;
    }

    /** Python's {@code Py_UNICODE_ISSPACE}. */
    public static boolean isPyWhitespace(char c) {
        return (c >= 0x09 && c <= 0x0d)
                || (c >= 0x1c && c <= 0x20)
                || c == 0x85
                || c == 0xa0
                || c == 0x1680
                || (c >= 0x2000 && c <= 0x200a)
                || c == 0x2028
                || c == 0x2029
                || c == 0x202f
                || c == 0x205f
                || c == 0x3000;
    }
}
