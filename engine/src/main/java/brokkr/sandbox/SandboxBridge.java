package brokkr.sandbox;

import java.util.Map;

/**
 * What snippet code in a sandbox calls to reach the harness: one tool call, answered by the
 * harness's {@link Sandbox.CallHandler} (which decides what a name means and refuses names it does not
 * know). The generated tool classes of a REPL action space call this; nothing else crosses over.
 */
public final class SandboxBridge {
    private SandboxBridge() {}

    /** Calls tool {@code name} with keyword arguments; returns its text result, throws on a refused call. */
    public static String call(String name, Map<String, Object> args) {
        return SandboxAgent.call(name, args);
    }

    /** JSON text as plain maps, lists, strings, numbers, booleans and nulls. */
    public static Object parse(String json) { return MiniJson.parse(json); }

    /** A value as JSON text. */
    public static String json(Object value) { return MiniJson.write(value); }
}
