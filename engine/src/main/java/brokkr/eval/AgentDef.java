package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.Objects;

/**
 * A candidate, content-addressed: everything that varies between candidates (model, provider,
 * action space, options, the system prompt's sha256) is in the content, so changing any of it is a
 * new candidate with new cells, while unchanged candidates keep theirs. The display label is not
 * content: renaming a candidate does not re-run it, and neither are the model's operational options
 * ({@link ModelRef#OPERATIONAL_OPTIONS}: timeout, attempts), which {@link #toValue} leaves out.
 *
 * @param systemPromptSha256 sha256 of the system prompt text, or null when the benchmark's own prompt is used
 * @param harness the agent harness and its settings ({@code brokkr.repl.Harness}); empty for the
 *        benchmark's reference agent, and then not in the content, so earlier candidates keep their ids
 */
public record AgentDef(
        String provider, String model, String actionSpace, PyDict options, String systemPromptSha256, PyDict harness) {
    public AgentDef {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(actionSpace, "actionSpace");
        options = options == null ? PyDict.empty() : options;
        harness = harness == null ? PyDict.empty() : harness;
    }

    public AgentDef(String provider, String model, String actionSpace, PyDict options, String systemPromptSha256) {
        this(provider, model, actionSpace, options, systemPromptSha256, PyDict.empty());
    }

    /**
     * The model provider of an agent that is no model Brokkr calls: a client outside Brokkr that sends each turn
     * itself (a trainer stepping {@code ./brokkr env serve}, {@code brokkr.env.Env}).
     */
    public static final String EXTERNAL = "external";

    /** Whether this agent is an {@link #EXTERNAL} client. */
    public boolean external() {
        return provider.equals(EXTERNAL);
    }

    /**
     * Whether this agent may play opposite a benchmark's scripted counterparts (a scripted user simulator, which
     * answers by a script that expects the gold moves): a scripted candidate, whose moves are the script's, or an
     * {@link #external} client, which may replay the gold moves itself and is told what its counterpart is. A model
     * candidate opposite a scripted user would be scored on a conversation no user would have: it needs a model on
     * the other side.
     */
    public boolean mayFaceScriptedCounterparts() {
        return provider.equals(BenchmarkProvider.SCRIPTED) || external();
    }

    public AgentDef withHarness(PyDict h) {
        return new AgentDef(provider, model, actionSpace, options, systemPromptSha256, h);
    }

    public static AgentDef of(ModelRef model, String actionSpace, String systemPrompt) {
        return new AgentDef(
                model.provider(),
                model.model(),
                actionSpace,
                model.options(),
                systemPrompt == null ? null : ContentHash.sha256(systemPrompt));
    }

    public ModelRef modelRef() {
        return new ModelRef(provider, model, options);
    }

    public PyDict toValue() {
        PyDict.Builder b = PyDict.builder()
                .put("kind", "agent")
                .put("provider", provider)
                .put("model", model)
                .put("action_space", actionSpace)
                .put("options", ModelRef.identityOptions(options))
                .put("system_prompt_sha256", systemPromptSha256 == null ? PyNone.NONE : Value.str(systemPromptSha256));
        if (!harness.isEmpty()) b.put("harness", harness);
        return b.build();
    }

    public String id() {
        return ContentHash.of(toValue());
    }

    public static AgentDef fromValue(Value v) {
        PyDict d = v.asDict();
        Value sp = d.get("system_prompt_sha256");
        Value h = d.get("harness");
        return new AgentDef(
                d.get("provider").asStr(),
                d.get("model").asStr(),
                d.get("action_space").asStr(),
                d.get("options").asDict(),
                sp == null || sp.isNone() ? null : sp.asStr(),
                h == null ? PyDict.empty() : h.asDict());
    }
}
