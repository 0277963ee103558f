package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.tool.WorldCell;

/**
 * What a protocol is given for one run: the definitions, the repetition, the forked world (already set
 * up), the candidate (its model as defined) and the run's models by role (also the candidate's, with
 * per-run request options). {@code systemPrompt} is the candidate's own system prompt, or null to use
 * the benchmark's.
 */
public record RunContext(
        EnvironmentDef env,
        AgentDef agent,
        String systemPrompt,
        int repetition,
        WorldCell world,
        Candidate candidate,
        Models models) {}
