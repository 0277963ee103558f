package brokkr.domains.tau2.orchestrator;

import brokkr.conversation.Candidate;
import brokkr.conversation.SpendLimit;
import brokkr.conversation.ToolSpec;
import brokkr.domains.tau2.model.TerminationReason;
import java.util.List;

/**
 * The agent under test: a candidate, the system prompt it is given (upstream {@code LLMAgent.system_prompt},
 * the domain policy wrapped in upstream's instructions) and the agent tools.
 *
 * @param stopsOnToken whether {@code ###STOP###} in the agent's text ends the episode (upstream
 *        {@code is_stop}). At the pinned upstream commit the half-duplex {@code LLMAgent} does NOT
 *        override {@code is_stop} (the inherited one returns False), so a model agent's stop token is just
 *        text for the user; only agents whose class defines it (solo/gym agents, and Brokkr's scripted
 *        agents) stop this way. {@link #llmAgent} follows upstream.
 * @param budget the cell's budget as the candidate's calls spend it: reached after one of the agent's messages,
 *        the episode ends there ({@link TerminationReason#CELL_BUDGET}).
 */
public record AgentSide(
        String name,
        Candidate candidate,
        String systemPrompt,
        List<ToolSpec> tools,
        boolean stopsOnToken,
        SpendLimit budget) {
    public AgentSide {
        tools = List.copyOf(tools);
        budget = budget == null ? SpendLimit.NONE : budget;
    }

    /** An agent without a cell budget. */
    public AgentSide(
            String name, Candidate candidate, String systemPrompt, List<ToolSpec> tools, boolean stopsOnToken) {
        this(name, candidate, systemPrompt, tools, stopsOnToken, SpendLimit.NONE);
    }

    /** Upstream's {@code LLMAgent}: never stops by itself. */
    public static AgentSide llmAgent(String name, Candidate candidate, String systemPrompt, List<ToolSpec> tools) {
        return new AgentSide(name, candidate, systemPrompt, tools, false);
    }
}
