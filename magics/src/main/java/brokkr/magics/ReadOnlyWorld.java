package brokkr.magics;

import brokkr.agent.ToolHandler;
import brokkr.conversation.ToolCall;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.Value;

import java.util.List;

/** A synthetic domain's world: no call changes it, so a call's world after is this one. */
record ReadOnlyWorld(Value state, List<String> tools, ToolHandler handler) implements ToolWorld {
    @Override public Step call(String tool, PyDict args) {
        return new Step(handler.handle(new ToolCall("call_0", tool, args, PyJson.dumps(args), null)), this);
    }
}
