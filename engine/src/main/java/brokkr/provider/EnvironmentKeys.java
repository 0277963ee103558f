package brokkr.provider;

import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every API key in the harness's environment ({@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY} and any
 * other {@code *_API_KEY}, {@code *_TOKEN} or {@code *_SECRET}), whichever provider a run uses, scrubbed
 * from a text by {@link Secret#redact}. A provider redacts its own key from what it records; this is for
 * text that did not come from a provider: a tool result (a REPL snippet's output), and every text an
 * attempt stores, where a key of another provider could arrive (issue 30: the Anthropic key stayed
 * unredacted everywhere while the run used OpenAI).
 */
public final class EnvironmentKeys {
    private static final Pattern KEY_NAME = Pattern.compile(".*(_API_KEY|_TOKEN|_SECRET)");
    private static final EnvironmentKeys PROCESS = of(System.getenv());

    private final List<Secret> keys;

    private EnvironmentKeys(List<Secret> keys) {
        this.keys = keys;
    }

    /** The keys of {@code env} (tests pass a map). */
    public static EnvironmentKeys of(Map<String, String> env) {
        List<Secret> keys = new ArrayList<>();
        env.entrySet().stream()
                .filter(e -> KEY_NAME.matcher(e.getKey()).matches())
                .sorted(Map.Entry.comparingByKey())
                .map(e -> Secret.of(e.getValue()))
                .filter(Secret::isPresent)
                .forEach(keys::add);
        return new EnvironmentKeys(List.copyOf(keys));
    }

    /** The keys of this process's environment. */
    public static EnvironmentKeys process() {
        return PROCESS;
    }

    /** {@code text} with every key redacted; the same instance when none occurs (or there are no keys). */
    public String redact(String text) {
        for (Secret k : keys) text = k.redact(text);
        return text;
    }

    /** {@code v} with every key redacted from its strings and dict keys (the same instance when there are no keys). */
    public Value redact(Value v) {
        if (keys.isEmpty()) return v;
        return switch (v) {
            case PyStr s -> {
                String r = redact(s.value());
                yield r == s.value() ? s : Value.str(r);
            }
            case PyDict d -> {
                PyDict.Builder b = PyDict.builder();
                for (var e : d.entries()) b.put(redact(e.getKey()), redact(e.getValue()));
                yield b.build();
            }
            case PyList l -> PyList.of(l.items().stream().map(this::redact).toList());
            default -> v;
        };
    }
}
