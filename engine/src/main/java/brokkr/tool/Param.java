package brokkr.tool;

import brokkr.value.Value;

/** A positional-or-keyword parameter of a transcribed Python function; required iff it has no default. */
public record Param(String name, Value defaultValue) {
    public static Param required(String name) {
        return new Param(name, null);
    }

    public static Param optional(String name, Value dflt) {
        return new Param(name, dflt);
    }

    public boolean isRequired() {
        return defaultValue == null;
    }
}
