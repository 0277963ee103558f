package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.Value;

/** What an evaluator observes: the definitions, the setup's evidence, the final world and the interaction. */
public record FinishedRun(
        EnvironmentDef env,
        AgentDef agent,
        int repetition,
        PyDict setupEvidence,
        Value finalWorld,
        Interaction interaction) {}
