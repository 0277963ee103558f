package brokkr.eval;

import brokkr.conversation.InfrastructureFailure;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;

/** Installs a task's initial world into the run's fresh fork and returns evidence about it (e.g. its hash). */
@FunctionalInterface
public interface WorldSetup {
    PyDict install(EnvironmentDef env, WorldCell fork) throws InfrastructureFailure;
}
