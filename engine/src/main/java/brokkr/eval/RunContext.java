package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.tool.WorldCell;

/**
 * What a protocol is given for one run: the definitions, the repetition, the forked world (already set
 * up), the candidate and the other models. {@code systemPrompt} is the candidate's own system prompt,
 * or null to use the benchmark's.
 */
public record RunContext(EnvironmentDef env, AgentDef agent, String systemPrompt, int repetition,
                         WorldCell world, Candidate candidate, Models models) {}
