package brokkr.tool;

import brokkr.value.Value;
import java.util.Map;

/** Arguments bound to a tool's parameters (defaults applied), in parameter order. */
public record Args(Map<String, Value> values) {
    public Value get(String name) {
        Value v = values.get(name);
        if (v == null) throw new IllegalArgumentException("no parameter " + name);
        return v;
    }
}
