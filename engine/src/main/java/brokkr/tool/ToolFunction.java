package brokkr.tool;

import brokkr.value.Value;

/**
 * A tool's body: a pure function of the world and its arguments. It returns the result value (a
 * {@code PyStr} for Python functions that return str) and puts any new world into the cell; it
 * raises {@link brokkr.python.PyException} as the Python code would.
 */
@FunctionalInterface
public interface ToolFunction {
    Value call(WorldCell world, Args args);
}
