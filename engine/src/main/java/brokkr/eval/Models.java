package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.value.PyDict;

/**
 * The models of a run by role: {@code agent} (the candidate's model) and those the
 * {@link EnvironmentDef} names ({@code user}, {@code judge}). Calls through them are recorded under
 * their role and count against their provider's limits.
 */
public interface Models {
    /**
     * The model playing {@code role} with {@code extraOptions} merged over its options (they win): for
     * request fields that vary per run, such as upstream tau2's per-trial {@code seed}. The extra
     * options are a protocol's deterministic function of the cell, so they need not be in a definition.
     * IllegalArgumentException when the run has no model for the role.
     */
    Candidate model(String role, PyDict extraOptions);

    /** The model playing {@code role} as defined. */
    default Candidate model(String role) {
        return model(role, PyDict.empty());
    }

    Models NONE = (role, extra) -> {
        throw new IllegalArgumentException("no model for role '" + role + "'");
    };
}
