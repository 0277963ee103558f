package brokkr.domains.tau2.model;

/** Upstream {@code TerminationReason} ({@code src/tau2/data_model/simulation.py}); {@link #value()} is upstream's string. */
public enum TerminationReason {
    USER_STOP("user_stop"),
    AGENT_STOP("agent_stop"),
    MAX_STEPS("max_steps"),
    TIMEOUT("timeout"),
    TOO_MANY_ERRORS("too_many_errors"),
    AGENT_ERROR("agent_error"),
    USER_ERROR("user_error"),
    /** A model call that could not be completed; excluded from metrics, never a model failure. */
    INFRASTRUCTURE_ERROR("infrastructure_error"),
    CONTEXT_WINDOW_EXCEEDED("context_window_exceeded"),
    /**
     * Brokkr's own, not upstream's: the candidate's spend reached the experiment's {@code budget.per_cell}. A
     * premature stop like {@code max_steps}, so upstream's {@code evaluate_simulation} would score it 0.
     */
    CELL_BUDGET("cell_budget"),
    UNEXPECTED_ERROR("unexpected_error");

    private final String value;

    TerminationReason(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /**
     * The reason upstream's {@code Results} model loads for this one: itself, but {@code cell_budget} (Brokkr's
     * own, which upstream's enum refuses) is {@code max_steps}, upstream's limit the runner imposes on an episode:
     * graded the same way (a premature stop, reward 0), counted in upstream's metrics as {@code termination_max_steps}.
     */
    public TerminationReason upstream() {
        return this == CELL_BUDGET ? MAX_STEPS : this;
    }

    /** Upstream {@code evaluate_simulation} grades only these; everything else scores 0. */
    public boolean isNormalStop() {
        return this == USER_STOP || this == AGENT_STOP;
    }
}
