package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyObjects;
import java.util.Objects;

/**
 * What a method call returns: the instance after the call, the process globals after the call and the
 * Python return value (a {@link PyObjects} object; rendered to the result text by the executor:
 * {@code json.dumps} for a dict, {@code str()} otherwise).
 */
public record Outcome(Backend self, Globals globals, Object result) {
    public Outcome {
        Objects.requireNonNull(self);
        Objects.requireNonNull(globals);
        Objects.requireNonNull(result, "a Python result (None is PyNone.NONE)");
    }
}
