package brokkr.magics;

import brokkr.agent.ToolResult;
import brokkr.value.PyDict;
import brokkr.value.Value;

import java.util.List;

/** A world and its tools; a call returns the result and the world after it, leaving this one as it was. */
public interface ToolWorld {
    Value state();

    List<String> tools();

    Step call(String tool, PyDict args);

    record Step(ToolResult result, ToolWorld after) {}
}
