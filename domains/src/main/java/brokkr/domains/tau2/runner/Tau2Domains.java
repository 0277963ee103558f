package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.data.UpstreamData;
import brokkr.experiment.Registry;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tau2-bench domains Brokkr has transcribed, by upstream name ({@code retail}): the
 * {@link Tau2Benchmark}s of the one registry ({@link Registry#load()}, {@code ServiceLoader<BenchmarkProvider>}).
 * Nothing else lists them, so a domain package and its services line are all it takes to add one.
 */
public final class Tau2Domains {
    private Tau2Domains() {}

    /** The tau2-bench commit every transcribed domain was proven against (upstream MANIFEST.md). */
    public static final String UPSTREAM_REVISION = "a2c024725189473d2d7cea3a5cfdbcc67478e41f";

    /** Where the tau2-bench data comes from. */
    public static final String UPSTREAM_URL = "https://github.com/sierra-research/tau2-bench";

    /**
     * The upstream files every registered domain reads, pinned ({@code ./brokkr data fetch tau2-bench}):
     * the repository at {@link #UPSTREAM_REVISION}, whose checkout root is the data directory.
     */
    public static UpstreamData upstream() {
        Map<String, UpstreamData.Pin> pins = new TreeMap<>();
        for (Tau2Benchmark b : all()) pins.putAll(b.dataPins());
        return new UpstreamData("tau2-bench", UPSTREAM_URL, UPSTREAM_REVISION, "", "BROKKR_TAU2_DATA", "brokkr.tau2.data", pins);
    }

    /** Every registered tau2 domain, sorted by upstream name. */
    public static List<Tau2Benchmark> all() {
        return Registry.load().benchmarks().values().stream()
                .filter(Tau2Benchmark.class::isInstance).map(Tau2Benchmark.class::cast)
                .sorted(Comparator.comparing(Tau2Benchmark::domainName)).toList();
    }

    /** The transcribed domains' upstream names, sorted. */
    public static List<String> names() { return all().stream().map(Tau2Benchmark::domainName).toList(); }

    /** The registered benchmark of a domain; IllegalArgumentException naming the available ones for an unknown name. */
    public static Tau2Benchmark benchmark(String domain) {
        for (Tau2Benchmark b : all()) if (b.domainName().equals(domain)) return b;
        throw new IllegalArgumentException("unknown tau2 domain '" + domain + "' (available: " + String.join(", ", names()) + ")");
    }

    /** A domain as episodes run it (environment, tasks, splits, prompts); loads and verifies its data. */
    public static Tau2Domain load(String domain) { return benchmark(domain).domain(); }

    /** The environment factory of a domain for conformance replay (loads and verifies its data), or null for an unknown name. */
    public static Tau2Conformance.EnvironmentFactory factory(String domain) {
        for (Tau2Benchmark b : all()) if (b.domainName().equals(domain)) return b.loaded().environments();
        return null;
    }
}
