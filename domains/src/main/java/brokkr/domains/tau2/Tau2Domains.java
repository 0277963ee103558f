package brokkr.domains.tau2;

import brokkr.domains.tau2.retail.RetailDomain;
import brokkr.tau2.Tau2Conformance;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The tau2-bench domains Brokkr has transcribed, by upstream name; the one place a name maps to a domain. */
public final class Tau2Domains {
    private Tau2Domains() {}

    private static final Map<String, Supplier<Tau2Conformance.EnvironmentFactory>> FACTORIES = Map.of(
            RetailDomain.DOMAIN, () -> RetailDomain.load().factory());

    public static List<String> names() { return FACTORIES.keySet().stream().sorted().toList(); }

    /** The environment factory of a domain (loads and verifies its data), or null for an unknown name. */
    public static Tau2Conformance.EnvironmentFactory factory(String domain) {
        Supplier<Tau2Conformance.EnvironmentFactory> s = FACTORIES.get(domain);
        return s == null ? null : s.get();
    }
}
