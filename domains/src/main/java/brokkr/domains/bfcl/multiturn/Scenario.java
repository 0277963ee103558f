package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyException;
import brokkr.python.PyObjects;
import java.util.Map;

/** What {@code _load_scenario(scenario, ...)} does with its argument: {@code scenario.get(key, default)}. */
public final class Scenario {
    private Scenario() {}

    /** The scenario as a dict (upstream's {@code scenario.get} raises AttributeError for anything else). */
    public static Map<?, ?> dict(Object scenario) {
        if (scenario instanceof Map<?, ?> m) return m;
        throw PyException.attributeError("'" + PyObjects.typeName(scenario) + "' object has no attribute 'get'");
    }

    /** {@code scenario.get(key, dflt)}. */
    public static Object get(Map<?, ?> scenario, String key, Object dflt) {
        Object v = scenario.get(key);
        return v != null ? v : dflt;
    }
}
