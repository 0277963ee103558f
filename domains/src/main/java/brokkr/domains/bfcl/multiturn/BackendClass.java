package brokkr.domains.bfcl.multiturn;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An upstream backend class: its name ({@code involved_classes} spells it), whether it is stateless
 * ({@code STATELESS_CLASSES}: no {@code _load_scenario}), how an instance is made and its public methods.
 *
 * <p>Registration: a backend class named {@code X} upstream is the Java class
 * {@code brokkr.domains.bfcl.multiturn.backends.X} with a {@code public static final BackendClass CLASS}
 * field; {@link Backends} finds it by that name (no list to edit).
 */
public record BackendClass(String name, boolean stateless, Loader loader, Map<String, Method> methods) {
    public BackendClass {
        methods = Map.copyOf(methods);
    }

    public static BackendClass of(String name, boolean stateless, Loader loader, List<Method> methods) {
        Map<String, Method> byName = new LinkedHashMap<>();
        for (Method m : methods) {
            if (byName.put(m.name(), m) != null)
                throw new IllegalArgumentException(name + ": method " + m.name() + " twice");
        }
        return new BackendClass(name, stateless, loader, byName);
    }

    /**
     * {@code class_()} followed (unless stateless) by
     * {@code _load_scenario(copy.deepcopy(initial_config.get(name, {})), long_context=long_context)}.
     * {@code config} is that Python object (normally a dict; for a stateless class an empty dict);
     * the returned {@link Outcome}'s result is ignored.
     */
    @FunctionalInterface
    public interface Loader {
        Outcome load(Object config, boolean longContext, Globals globals);
    }
}
