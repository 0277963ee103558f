package brokkr.command;

import brokkr.conversation.Candidate;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import java.util.Map;

/**
 * Where {@code --model M --provider P} gets its candidate from. The CLI's source reads keys and base
 * URLs from the environment only ({@link Providers#fromEnvironment}); tests hand in a map.
 */
@FunctionalInterface
public interface ModelSource {
    /** A candidate for {@code model} behind {@code provider}; IllegalArgumentException for a bad configuration. */
    Candidate open(String provider, String model);

    /** Providers configured from {@code env}, with the default options (timeouts, retries). */
    static ModelSource fromEnvironment(Map<String, String> env) {
        return (provider, model) -> Providers.fromEnvironment(env, provider, model, ProviderOptions.defaults(model));
    }
}
