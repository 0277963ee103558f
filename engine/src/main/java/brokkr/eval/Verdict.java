package brokkr.eval;

import brokkr.value.PyDict;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * An evaluator's grade: the checks in a stable order, the reward (1.0 = success, as upstream tau2's
 * {@code is_successful}) and the trust tier. {@code details} is portable explanation for inspection.
 */
public record Verdict(List<Check> checks, double reward, TrustTier trust, PyDict details) {
    public Verdict {
        checks = List.copyOf(checks);
        Objects.requireNonNull(trust, "trust");
        details = details == null ? PyDict.empty() : details;
        var names = new HashSet<String>();
        for (Check c : checks) {
            if (!names.add(c.name())) throw new IllegalArgumentException("duplicate check " + c.name());
        }
    }
}
