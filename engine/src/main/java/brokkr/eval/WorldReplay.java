package brokkr.eval;

import brokkr.value.Value;

/**
 * Re-derives a run's final world from its record: installs the task's initial world and replays the
 * tool calls of the recorded transcript. Inspection compares the result's hash with the final-world
 * hash the run recorded ({@code verify-world}); a benchmark without a world or without replay brings none.
 */
@FunctionalInterface
public interface WorldReplay {
    Value replay(EnvironmentDef env, Evidence evidence);
}
