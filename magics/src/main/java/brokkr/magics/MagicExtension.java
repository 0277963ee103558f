package brokkr.magics;

/**
 * Adds magics to a registry; found with {@link java.util.ServiceLoader} ({@code META-INF/services/brokkr.magics.MagicExtension}),
 * so the magics of a later module (experiments, episodes, probes) plug in without this module knowing them.
 */
public interface MagicExtension {
    void install(MagicRegistry registry);
}
