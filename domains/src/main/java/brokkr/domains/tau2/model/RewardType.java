package brokkr.domains.tau2.model;

/** Upstream {@code RewardType} ({@code src/tau2/data_model/tasks.py}): the components a task's reward can be gated on. */
public enum RewardType {
    DB,
    ENV_ASSERTION,
    NL_ASSERTION,
    ACTION,
    COMMUNICATE;

    public static RewardType parse(String s) {
        try {
            return valueOf(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown reward type '" + s + "'");
        }
    }
}
