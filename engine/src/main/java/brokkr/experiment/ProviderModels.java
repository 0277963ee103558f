package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.eval.ModelFactory;
import brokkr.eval.ModelRef;
import brokkr.provider.OpenAiResponses;
import brokkr.provider.ProviderOptions;
import brokkr.provider.Providers;
import brokkr.python.PyJson;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Model factories for the HTTP providers of {@link Providers}: keys and base URLs from the
 * environment only. A model reference's options map onto {@link ProviderOptions}:
 * {@code temperature}, {@code max_tokens}, {@code parallel_tool_calls}, {@code max_attempts},
 * {@code timeout_seconds}, {@code max_response_bytes} (default 8 MiB); {@code reasoning_effort} (a word; sent as
 * {@code reasoning_effort} on the chat wire, {@code reasoning.effort} on the Responses wire), and for
 * {@code openai-responses} only {@code reasoning_summary} and {@code strict_tools} (see {@link OpenAiResponses});
 * any other option is sent as a top-level request field ({@code seed},
 * {@code top_p}, ...). Options are part of the AgentDef, so changing one makes a new candidate, except the
 * operational ones ({@link ModelRef#OPERATIONAL_OPTIONS}: timeout, attempts, response size), which change no id.
 */
public abstract class ProviderModels implements ModelFactory {
    private final String provider;
    private final Map<String, String> env;

    protected ProviderModels(String provider, Map<String, String> env) {
        this.provider = provider;
        this.env = env;
    }

    @Override
    public String provider() {
        return provider;
    }

    @Override
    public String summary() {
        return switch (provider) {
            case "openai" -> "OpenAI Chat Completions, or any compatible server (OPENAI_BASE_URL, OPENAI_API_KEY)";
            case OpenAiResponses.NAME ->
                "OpenAI Responses API: reasoning_effort, encrypted reasoning carried between steps, stream"
                        + " (OPENAI_BASE_URL, OPENAI_API_KEY)";
            case "anthropic" -> "Anthropic Messages (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY)";
            default -> "";
        };
    }

    /** The OpenAI wire answers to the names of compatible servers too ({@link Providers#OPENAI_COMPATIBLE}). */
    @Override
    public List<String> aliases() {
        return provider.equals("openai")
                ? Providers.OPENAI_COMPATIBLE.stream()
                        .filter(p -> !p.equals("openai"))
                        .toList()
                : List.of();
    }

    @Override
    public Candidate create(ModelRef model) {
        return create(model, env);
    }

    @Override
    public Candidate create(ModelRef model, Map<String, String> env) {
        return Providers.fromEnvironment(env, provider, model.model(), options(model));
    }

    static ProviderOptions options(ModelRef ref) {
        ProviderOptions o = ProviderOptions.defaults(ref.model());
        PyDict.Builder extra = PyDict.builder();
        for (var e : ref.options().entries()) {
            Value v = e.getValue();
            o = switch (e.getKey()) {
                case "temperature" -> o.withTemperature(number(e.getKey(), v));
                case "max_tokens" -> o.withMaxTokens((int) integer(e.getKey(), v, 1, Integer.MAX_VALUE));
                case "parallel_tool_calls" -> o.withParallelToolCalls(bool(e.getKey(), v));
                case "max_attempts" -> o.withMaxAttempts((int) integer(e.getKey(), v, 1, MAX_ATTEMPTS));
                case "timeout_seconds" -> o.withTimeout(Duration.ofMillis(timeoutMillis(e.getKey(), v)));
                case "max_response_bytes" -> o.withMaxResponseBytes(integer(e.getKey(), v, 1, MAX_RESPONSE_BYTES));
                case "reasoning_effort", "reasoning_summary" -> {
                    // Sent as given (the API's own set of efforts grows: minimal, xhigh), but a word: a typo of
                    // a number or a list is the spec's error, not a 400 from a server.
                    if (!(v instanceof brokkr.value.PyStr s && s.value().matches("[a-z_]+")))
                        throw new IllegalArgumentException("model option " + e.getKey()
                                + " must be a word such as low, medium or high, got " + shown(v));
                    if (e.getKey().equals("reasoning_summary")) responsesOnly(ref, e.getKey());
                    extra.put(e.getKey(), v);
                    yield o;
                }
                case "strict_tools" -> {
                    responsesOnly(ref, e.getKey());
                    extra.put(e.getKey(), PyBool.of(bool(e.getKey(), v)));
                    yield o;
                }
                default -> {
                    extra.put(e.getKey(), v);
                    yield o;
                }
            };
        }
        return o.withExtra(extra.build());
    }

    /** Options only the Responses wire reads: on another wire they would go out as fields its server refuses. */
    private static void responsesOnly(ModelRef ref, String option) {
        if (!ref.provider().equalsIgnoreCase(OpenAiResponses.NAME))
            throw new IllegalArgumentException("model option " + option + " is read only by provider "
                    + OpenAiResponses.NAME + ", not " + ref.provider());
    }

    private static double number(String k, Value v) {
        return switch (v) {
            case PyInt i -> i.value().doubleValue();
            case PyFloat f -> f.value();
            default -> throw new IllegalArgumentException("model option " + k + " must be a number");
        };
    }

    /** Bounds of the options, named as a spec names them (checked before narrowing, so 1e12 is an error, not a wrap). */
    static final int MAX_ATTEMPTS = 100;

    /** 1 GiB: the cap bounds what one response may hold in memory; beyond it the cap bounds nothing. */
    static final long MAX_RESPONSE_BYTES = 1L << 30;

    static final long MAX_TIMEOUT_SECONDS = Duration.ofDays(1).toSeconds();

    private static long integer(String k, Value v, long min, long max) {
        if (v instanceof PyInt i && i.fitsLong() && i.longValue() >= min && i.longValue() <= max) return i.longValue();
        throw new IllegalArgumentException(
                "model option " + k + " must be a whole number from " + min + " to " + max + ", got " + shown(v));
    }

    private static long timeoutMillis(String k, Value v) {
        double s = number(k, v);
        if (s > 0 && s <= MAX_TIMEOUT_SECONDS) return Math.max(1, Math.round(s * 1000));
        throw new IllegalArgumentException("model option " + k + " must be a number of seconds above 0 and at most "
                + MAX_TIMEOUT_SECONDS + ", got " + shown(v));
    }

    private static String shown(Value v) {
        String json = PyJson.dumps(v);
        return json.length() <= 40 ? json : json.substring(0, 40) + "...";
    }

    private static boolean bool(String k, Value v) {
        if (v instanceof PyBool b) return b.value();
        throw new IllegalArgumentException("model option " + k + " must be true or false");
    }

    /** OpenAI-compatible servers: OPENAI_API_KEY, OPENAI_BASE_URL; also named vllm, llamacpp, ollama, openai-compatible. */
    public static final class OpenAi extends ProviderModels {
        public OpenAi() {
            super("openai", System.getenv());
        }
    }

    /** The OpenAI Responses API ({@code openai-responses}): OPENAI_API_KEY, OPENAI_BASE_URL, as {@link OpenAi}. */
    public static final class OpenAiResponsesModels extends ProviderModels {
        public OpenAiResponsesModels() {
            super(OpenAiResponses.NAME, System.getenv());
        }
    }

    /** Anthropic Messages: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL. */
    public static final class Anthropic extends ProviderModels {
        public Anthropic() {
            super("anthropic", System.getenv());
        }
    }
}
