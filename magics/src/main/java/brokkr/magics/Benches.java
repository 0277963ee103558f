package brokkr.magics;

import brokkr.eval.BenchmarkProvider;
import brokkr.experiment.Registry;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The domains {@code %domain load} knows: the benchmarks of a session's {@link Registry} (the process's
 * one registry in a kernel or REPL) that offer an exploration, by name, in registration order. A loaded
 * domain is kept per provider (its data is immutable), so loading it again is free, and its provider
 * serves every {@code %run}, {@code %probe}, {@code %checkpoint} and {@code %branch} of the session.
 */
public final class Benches {
    private Benches() {}

    /** Loaded domains by provider object: a provider's data is loaded and verified once per process. */
    private static final Map<BenchmarkProvider, Bench> LOADED = new WeakHashMap<>();

    public static List<String> names(Registry registry) {
        return registry.benchmarks().values().stream()
                .filter(p -> p.exploration().isPresent())
                .map(BenchmarkProvider::name)
                .toList();
    }

    public static Bench load(Registry registry, String name) {
        BenchmarkProvider p = registry.benchmarks().get(name);
        if (p == null)
            throw new MagicUsageException(
                    "unknown domain '" + name + "' (one of " + String.join(", ", names(registry)) + ")");
        synchronized (LOADED) {
            Bench b = LOADED.get(p);
            if (b == null) {
                b = new Bench(
                        p,
                        p.exploration()
                                .orElseThrow(() -> new MagicUsageException("domain '" + name
                                        + "' offers no exploration: it runs in experiments only (%%experiment with domain: "
                                        + name + ")")));
                LOADED.put(p, b);
            }
            return b;
        }
    }
}
