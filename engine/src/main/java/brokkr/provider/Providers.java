package brokkr.provider;

import java.net.http.HttpClient;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Builds providers from environment variables, the only place keys come from:
 *
 * <ul>
 *   <li>{@code openai} (aliases {@code openai-compatible}, {@code vllm}, {@code llamacpp},
 *       {@code ollama}): {@code OPENAI_BASE_URL} (default {@value OpenAiChat#DEFAULT_BASE_URL}) and
 *       {@code OPENAI_API_KEY}, required only for the default base URL (local servers need none);</li>
 *   <li>{@code openai-responses}: the OpenAI Responses API ({@link OpenAiResponses}) at the same
 *       {@code OPENAI_BASE_URL} / {@code OPENAI_API_KEY} as {@code openai};</li>
 *   <li>{@code anthropic}: {@code ANTHROPIC_BASE_URL} (default
 *       {@value AnthropicMessages#DEFAULT_BASE_URL}) and {@code ANTHROPIC_API_KEY}, required for the
 *       default base URL.</li>
 * </ul>
 *
 * Error messages name variables, never their values.
 */
public final class Providers {
    private Providers() {}

    /**
     * The provider names that speak the OpenAI Chat Completions wire ({@code openai} and its aliases for
     * compatible servers). Benchmarks transcribed from upstreams that call models through litellm send
     * such providers the request fields litellm passes on only to them (tau2's {@code seed}).
     */
    public static final List<String> OPENAI_COMPATIBLE =
            List.of("openai", "openai-compatible", "vllm", "llamacpp", "ollama");

    /** Whether {@code provider} (any case) is one of {@link #OPENAI_COMPATIBLE}. */
    public static boolean openAiCompatible(String provider) {
        return OPENAI_COMPATIBLE.contains(provider.toLowerCase(Locale.ROOT));
    }

    /** A provider configured from {@link System#getenv()}. */
    public static ModelProvider fromEnvironment(String provider, String model, ProviderOptions options) {
        return fromEnvironment(System.getenv(), provider, model, options);
    }

    /** A provider configured from {@code env} (tests pass a map; production passes {@code System.getenv()}). */
    public static ModelProvider fromEnvironment(
            Map<String, String> env, String provider, String model, ProviderOptions options) {
        return fromEnvironment(env, provider, model, options, Effects.httpClient(options.timeout()), Effects.system());
    }

    /** As above with an explicit HTTP client and effects (clock, sleeper, jitter). */
    public static ModelProvider fromEnvironment(
            Map<String, String> env,
            String provider,
            String model,
            ProviderOptions options,
            HttpClient http,
            Effects effects) {
        Objects.requireNonNull(env);
        Objects.requireNonNull(model, "model");
        ProviderOptions o = options.withModel(model);
        return switch (openAiCompatible(provider) ? "openai" : provider.toLowerCase(Locale.ROOT)) {
            case "openai" -> openAi(OpenAiChat.INSTANCE, env, o, http, effects);
            case OpenAiResponses.NAME -> openAi(OpenAiResponses.INSTANCE, env, o, http, effects);
            case "anthropic" -> {
                String base = env.getOrDefault("ANTHROPIC_BASE_URL", "");
                boolean official = base.isBlank();
                Secret key = key(env, "ANTHROPIC_API_KEY");
                if (official && !key.isPresent()) throw new IllegalArgumentException("ANTHROPIC_API_KEY is not set");
                yield new HttpProvider(
                        AnthropicMessages.INSTANCE,
                        official ? AnthropicMessages.DEFAULT_BASE_URL : base,
                        key,
                        o,
                        http,
                        effects);
            }
            default ->
                throw new IllegalArgumentException("unknown provider '" + provider + "' (known: "
                        + String.join(", ", OPENAI_COMPATIBLE) + ", " + OpenAiResponses.NAME + ", anthropic)");
        };
    }

    /** A wire of OpenAI's (chat completions or responses) at {@code OPENAI_BASE_URL}, with {@code OPENAI_API_KEY}. */
    private static HttpProvider openAi(
            WireFormat wire, Map<String, String> env, ProviderOptions o, HttpClient http, Effects effects) {
        String base = env.getOrDefault("OPENAI_BASE_URL", "");
        boolean official = base.isBlank();
        Secret key = key(env, "OPENAI_API_KEY");
        if (official && !key.isPresent())
            throw new IllegalArgumentException(
                    "OPENAI_API_KEY is not set (required for " + OpenAiChat.DEFAULT_BASE_URL + ")");
        return new HttpProvider(wire, official ? OpenAiChat.DEFAULT_BASE_URL : base, key, o, http, effects);
    }

    private static Secret key(Map<String, String> env, String variable) {
        Secret key = Secret.of(env.get(variable));
        if (!key.isHeaderSafe()) throw new IllegalArgumentException(variable + ": " + HttpProvider.UNSENDABLE_KEY);
        return key;
    }
}
