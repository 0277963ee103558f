package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.SpendLimit;
import brokkr.tool.WorldCell;

/**
 * What a protocol is given for one run: the definitions, the repetition, the forked world (already set
 * up), the candidate (its model as defined) and the run's models by role (also the candidate's, with
 * per-run request options). {@code systemPrompt} is the candidate's own system prompt, or null to use
 * the benchmark's. {@code cellLimit} is the cell's budget as the candidate's calls spend it: a protocol that
 * runs a loop stops the episode when it is reached ({@link SpendLimit}).
 */
public record RunContext(
        EnvironmentDef env,
        AgentDef agent,
        String systemPrompt,
        int repetition,
        WorldCell world,
        Candidate candidate,
        Models models,
        SpendLimit cellLimit) {

    public RunContext {
        cellLimit = cellLimit == null ? SpendLimit.NONE : cellLimit;
    }

    /** A run without a cell budget. */
    public RunContext(
            EnvironmentDef env,
            AgentDef agent,
            String systemPrompt,
            int repetition,
            WorldCell world,
            Candidate candidate,
            Models models) {
        this(env, agent, systemPrompt, repetition, world, candidate, models, SpendLimit.NONE);
    }
}
