package brokkr.command;

import brokkr.conversation.Candidate;
import brokkr.eval.ModelRef;
import brokkr.experiment.Registry;
import java.util.Map;

/**
 * Where {@code --model M --provider P} gets its candidate from: the registry's one resolver (provider
 * names and aliases as everywhere else), keys and base URLs read from a command's environment only;
 * tests hand in a map, or a source of their own.
 */
@FunctionalInterface
public interface ModelSource {
    /** A candidate for {@code model} behind {@code provider}; IllegalArgumentException for a bad configuration. */
    Candidate open(String provider, String model);

    /** The registry's models configured from {@code env}, with the default options (timeouts, retries). */
    static ModelSource of(Registry registry, Map<String, String> env) {
        var resolver = registry.resolver(env);
        return (provider, model) -> resolver.apply(new ModelRef(provider, model));
    }

    /** {@link #of} the process's registry. */
    static ModelSource fromEnvironment(Map<String, String> env) {
        return of(Registry.process(), env);
    }
}
