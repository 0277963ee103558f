package brokkr.domains.tau2.runner;

import brokkr.domains.tau2.airline.AirlineDomain;
import brokkr.domains.tau2.retail.RetailDomain;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.environment.Tau2Data;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The tau2-bench domains Brokkr has transcribed, by upstream name; the one place a name maps to a domain. */
public final class Tau2Domains {
    private Tau2Domains() {}

    private static final Map<String, Supplier<Tau2Conformance.EnvironmentFactory>> FACTORIES = Map.of(
            RetailDomain.DOMAIN, () -> RetailDomain.load().factory(),
            AirlineDomain.DOMAIN, () -> AirlineDomain.load().factory());

    public static List<String> names() { return FACTORIES.keySet().stream().sorted().toList(); }

    /** The tau2-bench commit every transcribed domain was proven against (upstream MANIFEST.md). */
    public static final String UPSTREAM_REVISION = "a2c024725189473d2d7cea3a5cfdbcc67478e41f";

    /** The pinned upstream files each domain's episodes read: its own data plus the user simulator's guidelines. */
    private static final Map<String, Map<String, String>> DIGESTS = Map.of(
            RetailDomain.DOMAIN, merged(RetailDomain.DIGESTS, Tau2Data.USER_SIMULATOR_DIGESTS),
            AirlineDomain.DOMAIN, merged(AirlineDomain.DIGESTS, Tau2Data.USER_SIMULATOR_DIGESTS));

    /** The sha256 of every upstream file a domain's episodes depend on, by path; null for an unknown name. */
    public static Map<String, String> dataDigests(String domain) { return DIGESTS.get(domain); }

    private static Map<String, String> merged(Map<String, String> a, Map<String, String> b) {
        Map<String, String> m = new java.util.TreeMap<>(a);
        m.putAll(b);
        return Map.copyOf(m);
    }

    /** Domains as the episode protocol runs them (environment, tasks, splits, prompts). */
    private static final Map<String, Supplier<Tau2Domain>> EPISODES = Map.of(
            RetailDomain.DOMAIN, () -> Tau2Domain.retail(RetailDomain.load()),
            AirlineDomain.DOMAIN, () -> airline(AirlineDomain.load()));

    /** The airline domain for episodes: users have no tools, no {@code sync_tools}. */
    private static Tau2Domain airline(AirlineDomain d) {
        return new Tau2Domain(AirlineDomain.DOMAIN, d.episodeEnvironment(), d.taskSpecs(), d::split, d.agentSystemPrompt(),
                task -> d.userSystemPrompt(task.raw()));
    }

    /** Names of the domains episodes can run on. */
    public static List<String> episodeNames() { return EPISODES.keySet().stream().sorted().toList(); }

    /** A domain for episodes (loads and verifies its data), or null for an unknown name. */
    public static Tau2Domain episodes(String domain) {
        Supplier<Tau2Domain> s = EPISODES.get(domain);
        return s == null ? null : s.get();
    }

    /** The environment factory of a domain (loads and verifies its data), or null for an unknown name. */
    public static Tau2Conformance.EnvironmentFactory factory(String domain) {
        Supplier<Tau2Conformance.EnvironmentFactory> s = FACTORIES.get(domain);
        return s == null ? null : s.get();
    }
}
