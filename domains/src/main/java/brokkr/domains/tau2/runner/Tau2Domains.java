package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.retail.RetailDomain;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The tau2-bench domains Brokkr has transcribed, by upstream name: the one place a name maps to a
 * domain. Each entry gives everything a domain is used for: the upstream files its episodes read, its
 * environments for conformance replay, and the domain as episodes run it.
 */
public final class Tau2Domains {
    private Tau2Domains() {}

    /** The tau2-bench commit every transcribed domain was proven against (upstream MANIFEST.md). */
    public static final String UPSTREAM_REVISION = "a2c024725189473d2d7cea3a5cfdbcc67478e41f";

    /**
     * One transcribed domain. Data is loaded (and digest-checked) only when a supplier is called.
     *
     * @param digests sha256 by path of every upstream file its episodes read: its own data plus the user
     *                simulator's guidelines
     */
    private record Entry(Map<String, String> digests, Supplier<Tau2Conformance.EnvironmentFactory> environments,
                         Supplier<Tau2Domain> episodes) {}

    private static final Map<String, Entry> DOMAINS = Map.of(
            RetailDomain.DOMAIN, new Entry(merged(RetailDomain.DIGESTS, Tau2Data.USER_SIMULATOR_DIGESTS),
                    () -> RetailDomain.load().factory(), () -> Tau2Domain.retail(RetailDomain.load())));

    /** The transcribed domains' names, sorted. */
    public static List<String> names() { return DOMAINS.keySet().stream().sorted().toList(); }

    /** The sha256 of every upstream file a domain's episodes depend on, by path. */
    public static Map<String, String> dataDigests(String domain) { return entry(domain).digests(); }

    /** A domain as episodes run it (environment, tasks, splits, prompts); loads and verifies its data. */
    public static Tau2Domain load(String domain) { return entry(domain).episodes().get(); }

    /** The environment factory of a domain for conformance replay (loads and verifies its data), or null for an unknown name. */
    public static Tau2Conformance.EnvironmentFactory factory(String domain) {
        Entry e = DOMAINS.get(domain);
        return e == null ? null : e.environments().get();
    }

    private static Entry entry(String domain) {
        Entry e = DOMAINS.get(domain);
        if (e == null) throw new IllegalArgumentException("unknown tau2 domain '" + domain + "' (available: " + String.join(", ", names()) + ")");
        return e;
    }

    private static Map<String, String> merged(Map<String, String> a, Map<String, String> b) {
        Map<String, String> m = new TreeMap<>(a);
        m.putAll(b);
        return Map.copyOf(m);
    }
}
