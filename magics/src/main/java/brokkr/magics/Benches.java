package brokkr.magics;

import brokkr.eval.BenchmarkProvider;
import brokkr.experiment.Registry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The domains {@code %domain load} knows: the benchmarks of the one {@link Registry} that offer an
 * exploration, by name, in registration order. A loaded domain is kept (its data is immutable), so
 * loading it again is free, and its provider serves every {@code %run} of the session.
 */
public final class Benches {
    private Benches() {}

    private static final class Holder {
        static final Registry REGISTRY = Registry.load();
    }

    private static final Map<String, Bench> LOADED = new ConcurrentHashMap<>();

    /** The one registry: its benchmarks and its model factories (which read keys and base URLs from the environment). */
    public static Registry registry() { return Holder.REGISTRY; }

    public static List<String> names() {
        return Holder.REGISTRY.benchmarks().values().stream().filter(p -> p.exploration().isPresent())
                .map(BenchmarkProvider::name).toList();
    }

    public static Bench load(String name) {
        BenchmarkProvider p = Holder.REGISTRY.benchmarks().get(name);
        if (p == null) throw new MagicUsageException("unknown domain '" + name + "' (one of " + String.join(", ", names()) + ")");
        return LOADED.computeIfAbsent(name, n -> new Bench(p, p.exploration().orElseThrow(() -> new MagicUsageException(
                "domain '" + name + "' offers no exploration: it runs in experiments only (%%experiment with domain: " + name + ")"))));
    }
}
