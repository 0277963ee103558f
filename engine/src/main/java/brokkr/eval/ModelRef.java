package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.Objects;
import java.util.Set;

/**
 * A model behind a provider, e.g. {@code openai/gpt-4.1}: a user simulator, a judge, a candidate's model.
 * Its options are of two kinds: those that change what the model is asked (temperature, max_tokens,
 * seed, ...) are part of the identity ({@link #identity()}), the operational ones
 * ({@link #OPERATIONAL_OPTIONS}: how long to wait, how often to try, how much to read) are not, so fixing a
 * timeout resumes into the cells already made instead of starting over.
 */
public record ModelRef(String provider, String model, PyDict options) {
    /**
     * Options that say how a call is made, not what is asked: they never change a content id. A run that
     * differs only in these means the same thing (a timed-out or over-long reply is an infrastructure
     * error, retried or reported, never a score).
     */
    public static final String TIMEOUT_SECONDS = "timeout_seconds", MAX_ATTEMPTS = "max_attempts";

    public static final Set<String> OPERATIONAL_OPTIONS = Set.of(
            TIMEOUT_SECONDS,
            MAX_ATTEMPTS,
            "max_response_bytes",
            // claude-code: the binary's path (its version is pinned instead), where its config goes, usage-window waits
            "claude_cli",
            "config_dir",
            "usage_threshold",
            "usage_reruns");

    public ModelRef {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        options = options == null ? PyDict.empty() : options;
    }

    public ModelRef(String provider, String model) {
        this(provider, model, PyDict.empty());
    }

    public PyDict toValue() {
        return PyDict.of("provider", provider, "model", model, "options", options);
    }

    /** The options that are part of the identity: {@link #options} without the {@link #OPERATIONAL_OPTIONS}. */
    public PyDict identityOptions() {
        return identityOptions(options);
    }

    /** {@code options} without the {@link #OPERATIONAL_OPTIONS} (the same dict when it has none). */
    public static PyDict identityOptions(PyDict options) {
        PyDict out = options;
        for (String k : OPERATIONAL_OPTIONS) if (out.containsKey(k)) out = out.without(k);
        return out;
    }

    /** The content a definition hashes: {@link #toValue} with the identity options only. */
    public PyDict identity() {
        return PyDict.of("provider", provider, "model", model, "options", identityOptions());
    }

    public static ModelRef fromValue(Value v) {
        PyDict d = v.asDict();
        Value o = d.get("options");
        return new ModelRef(d.get("provider").asStr(), d.get("model").asStr(), o == null ? PyDict.empty() : o.asDict());
    }

    @Override
    public String toString() {
        return provider + "/" + model;
    }
}
