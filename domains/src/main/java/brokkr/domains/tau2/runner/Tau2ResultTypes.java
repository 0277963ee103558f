package brokkr.domains.tau2.runner;

import brokkr.tool.ResultTypes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The curated result types of each tau2 domain's tools ({@code result-types.json} in the domain's resource
 * folder, drafted from the shared corpora by the tests' {@code ResultTypesDraft}, then curated), loaded once.
 */
public final class Tau2ResultTypes {
    private Tau2ResultTypes() {}

    private static final Map<String, String> FOLDERS =
            Map.of("retail", "retail", "airline", "airline", "telecom", "telecom", "banking_knowledge", "banking");
    private static final Map<String, ResultTypes> LOADED = new ConcurrentHashMap<>();

    /** The types of tau2 domain {@code domain} (its upstream name: retail, airline, telecom, banking_knowledge). */
    public static ResultTypes of(String domain) {
        String folder = FOLDERS.get(domain);
        if (folder == null)
            throw new IllegalArgumentException("no tau2 domain " + domain + " (" + FOLDERS.keySet() + ")");
        return LOADED.computeIfAbsent(
                domain,
                d -> ResultTypes.resource(
                        Tau2ResultTypes.class, "/brokkr/domains/tau2/" + folder + "/result-types.json"));
    }
}
