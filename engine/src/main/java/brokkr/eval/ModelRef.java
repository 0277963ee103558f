package brokkr.eval;

import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.Objects;

/** A model behind a provider, e.g. {@code openai/gpt-4.1}: a user simulator, a judge, a candidate's model. */
public record ModelRef(String provider, String model, PyDict options) {
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
