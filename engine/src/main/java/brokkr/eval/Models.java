package brokkr.eval;

import brokkr.conversation.Candidate;

/**
 * The models of a run other than the candidate, by role ({@code user}, {@code judge}), as named in the
 * {@link EnvironmentDef}. Calls through them are recorded and count against their provider's limits.
 */
@FunctionalInterface
public interface Models {
    /** The model playing {@code role}; IllegalArgumentException when the environment names none. */
    Candidate model(String role);

    Models NONE = role -> { throw new IllegalArgumentException("no model for role '" + role + "'"); };
}
