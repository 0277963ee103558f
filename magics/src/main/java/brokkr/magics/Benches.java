package brokkr.magics;

import brokkr.domains.tau2.retail.RetailDomain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The domains {@code %domain load} knows, by name. A loaded domain is kept (its data is immutable), so
 * loading it again is free. Later modules add domains through {@link Provider} ({@link ServiceLoader}).
 */
public final class Benches {
    private Benches() {}

    /** Adds domains by name; found with {@link ServiceLoader}. */
    public interface Provider {
        Map<String, Supplier<Bench>> benches();
    }

    private static final Map<String, Bench> LOADED = new ConcurrentHashMap<>();

    private static Map<String, Supplier<Bench>> factories() {
        Map<String, Supplier<Bench>> m = new LinkedHashMap<>();
        m.put("loop", LoopBench::new);
        m.put("parallel", ParallelBench::new);
        m.put("tau2-retail", () -> new RetailBench(RetailDomain.load()));
        m.put("bfcl", () -> new BfclBench(brokkr.domains.bfcl.BfclData.load()));
        for (Provider p : ServiceLoader.load(Provider.class)) p.benches().forEach(m::putIfAbsent);
        return m;
    }

    public static List<String> names() { return List.copyOf(factories().keySet()); }

    public static Bench load(String name) {
        Supplier<Bench> f = factories().get(name);
        if (f == null) throw new MagicUsageException("unknown domain '" + name + "' (one of " + String.join(", ", names()) + ")");
        return LOADED.computeIfAbsent(name, n -> f.get());
    }
}
