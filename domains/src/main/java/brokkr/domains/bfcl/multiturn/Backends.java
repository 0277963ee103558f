package brokkr.domains.bfcl.multiturn;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The registry of backend classes by upstream class name (see {@link BackendClass} for how one registers). */
public final class Backends {
    private Backends() {}

    /** The classes BFCL v4's multi-turn categories involve ({@code CLASS_FILE_PATH_MAPPING} minus the agentic ones). */
    public static final List<String> NAMES = List.of(
            "GorillaFileSystem",
            "MathAPI",
            "MessageAPI",
            "TwitterAPI",
            "TicketAPI",
            "TradingBot",
            "TravelAPI",
            "VehicleControlAPI");

    /** Where a class named {@code X} upstream is looked for, in order: the multi-turn backends, then the memory ones. */
    private static final List<String> PACKAGES = List.of(
            "brokkr.domains.bfcl.multiturn.backends.", "brokkr.domains.bfcl.memory.", "brokkr.domains.bfcl.web.");

    private static final Map<String, Optional<BackendClass>> CACHE = new ConcurrentHashMap<>();

    /** The class registered under {@code name}, if its implementation is present. */
    public static Optional<BackendClass> find(String name) {
        return CACHE.computeIfAbsent(name, Backends::load);
    }

    /** The class registered under {@code name}; an {@link IllegalArgumentException} naming it if there is none. */
    public static BackendClass get(String name) {
        return find(name)
                .orElseThrow(() -> new IllegalArgumentException(
                        "no multi-turn backend class " + name + " (known: " + String.join(", ", NAMES) + ")"));
    }

    private static Optional<BackendClass> load(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) return Optional.empty();
        Class<?> c = null;
        for (String pkg : PACKAGES) {
            try {
                c = Class.forName(pkg + name);
                break;
            } catch (ClassNotFoundException e) {
                // the next package
            }
        }
        if (c == null) return Optional.empty();
        try {
            Field f = c.getField("CLASS");
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != BackendClass.class) {
                throw new IllegalStateException(c.getName() + ".CLASS is not a static BackendClass");
            }
            BackendClass bc = (BackendClass) f.get(null);
            if (!bc.name().equals(name)) throw new IllegalStateException(c.getName() + ".CLASS is named " + bc.name());
            return Optional.of(bc);
        } catch (NoSuchFieldException | IllegalAccessException e) {
            throw new IllegalStateException(c.getName() + " has no public static BackendClass CLASS", e);
        }
    }
}
