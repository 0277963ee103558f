package brokkr.domains.tau2.runner;

import brokkr.data.UpstreamData;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.experiment.Registry;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tau2-bench domains Brokkr has transcribed, by upstream name ({@code retail}): the
 * {@link Tau2Benchmark}s of a registry (the process's one, {@link Registry#process()}, unless a caller
 * passes its own). Nothing else lists them, so a domain package and its services line are all it takes to
 * add one. A domain is named {@code tau2-retail} everywhere (its benchmark's name); {@link #find} also
 * takes upstream's short name {@code retail} for the same lookup.
 */
public final class Tau2Domains {
    private Tau2Domains() {}

    /** The tau2-bench commit every transcribed domain was proven against (upstream MANIFEST.md). */
    public static final String UPSTREAM_REVISION = "a2c024725189473d2d7cea3a5cfdbcc67478e41f";

    /** The tau2 package version at {@link #UPSTREAM_REVISION} (its pyproject.toml), what upstream's {@code get_tau2_version} reports. */
    public static final String UPSTREAM_VERSION = "1.0.1";

    /** Where the tau2-bench data comes from. */
    public static final String UPSTREAM_URL = "https://github.com/sierra-research/tau2-bench";

    /** {@link #upstream(Registry)} of the process's registry. */
    public static UpstreamData upstream() {
        return upstream(Registry.process());
    }

    /**
     * The upstream files every domain of {@code registry} reads, pinned ({@code ./brokkr data fetch tau2-bench}):
     * the repository at {@link #UPSTREAM_REVISION}, whose checkout root is the data directory.
     */
    public static UpstreamData upstream(Registry registry) {
        Map<String, UpstreamData.Pin> pins = new TreeMap<>();
        for (Tau2Benchmark b : all(registry)) pins.putAll(b.dataPins());
        return new UpstreamData(
                "tau2-bench", UPSTREAM_URL, UPSTREAM_REVISION, "", "BROKKR_TAU2_DATA", "brokkr.tau2.data", pins);
    }

    /** {@link #all(Registry)} of the process's registry. */
    public static List<Tau2Benchmark> all() {
        return all(Registry.process());
    }

    /** Every tau2 domain of {@code registry}, sorted by upstream name. */
    public static List<Tau2Benchmark> all(Registry registry) {
        return registry.benchmarks().values().stream()
                .filter(Tau2Benchmark.class::isInstance)
                .map(Tau2Benchmark.class::cast)
                .sorted(Comparator.comparing(Tau2Benchmark::domainName))
                .toList();
    }

    /** The transcribed domains' upstream names, sorted (of the process's registry). */
    public static List<String> names() {
        return names(Registry.process());
    }

    /** The upstream names of {@code registry}'s tau2 domains, sorted. */
    public static List<String> names(Registry registry) {
        return all(registry).stream().map(Tau2Benchmark::domainName).toList();
    }

    /**
     * The domain named {@code name} in {@code registry}: its benchmark's name ({@code tau2-retail}) or upstream's
     * short name ({@code retail}), one lookup; null when there is none.
     */
    public static Tau2Benchmark find(Registry registry, String name) {
        for (Tau2Benchmark b : all(registry))
            if (b.name().equals(name) || b.domainName().equals(name)) return b;
        return null;
    }

    /** {@link #benchmark(Registry, String)} of the process's registry. */
    public static Tau2Benchmark benchmark(String domain) {
        return benchmark(Registry.process(), domain);
    }

    /** The benchmark of a domain ({@link #find}); IllegalArgumentException naming the available ones for an unknown name. */
    public static Tau2Benchmark benchmark(Registry registry, String domain) {
        Tau2Benchmark b = find(registry, domain);
        if (b == null)
            throw new IllegalArgumentException(
                    "unknown tau2 domain '" + domain + "' (available: " + String.join(", ", names(registry)) + ")");
        return b;
    }

    /** A domain as episodes run it (environment, tasks, splits, prompts); loads and verifies its data. */
    public static Tau2Domain load(String domain) {
        return benchmark(domain).domain();
    }

    /** {@link #factory(Registry, String)} of the process's registry. */
    public static Tau2Conformance.EnvironmentFactory factory(String domain) {
        return factory(Registry.process(), domain);
    }

    /** The environment factory of a domain for conformance replay (loads and verifies its data), or null for an unknown name. */
    public static Tau2Conformance.EnvironmentFactory factory(Registry registry, String domain) {
        Tau2Benchmark b = find(registry, domain);
        return b == null ? null : b.loaded().environments();
    }
}
