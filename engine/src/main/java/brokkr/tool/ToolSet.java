package brokkr.tool;

import brokkr.python.PyException;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tools by name, dispatched with Python keyword binding. Dispatch never throws: a binding error, a
 * raised Python exception or an unexpected Java failure becomes {@link Outcome.Failed}, carrying the
 * world as it was when the call stopped; an unknown name is {@link Outcome.Unknown} so the host
 * benchmark can word it.
 */
public final class ToolSet {
    private final Map<String, ToolDef> tools = new LinkedHashMap<>();

    public ToolSet(Collection<ToolDef> defs) {
        for (ToolDef d : defs) tools.put(d.name(), d);
    }

    public Collection<ToolDef> tools() {
        return tools.values();
    }

    public ToolDef get(String name) {
        return tools.get(name);
    }

    public boolean has(String name) {
        return tools.containsKey(name);
    }

    public sealed interface Outcome {
        Value world();

        record Ok(Value world, Value result) implements Outcome {}

        record Failed(Value world, PyException error) implements Outcome {}

        record Unknown(Value world, String name) implements Outcome {}
    }

    /** Binds {@code kwargs} as keywords to a bound method (its {@code self} already bound) and runs it. */
    public Outcome dispatch(Value world, String name, PyDict kwargs) {
        ToolDef def = tools.get(name);
        if (def == null) return new Outcome.Unknown(world, name);
        WorldCell cell = new WorldCell(world);
        try {
            Args args = PyBinding.bind(def.qualname(), List.of("self"), def.params(), kwargs);
            Value result = def.body().call(cell, args);
            return new Outcome.Ok(cell.get(), result);
        } catch (PyException e) {
            return new Outcome.Failed(cell.get(), e);
        } catch (RuntimeException | StackOverflowError e) {
            // A transcription bug must not crash an episode; it surfaces as an error the record keeps.
            return new Outcome.Failed(
                    cell.get(), new PyException("InternalError", e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }
}
