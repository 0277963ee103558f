package brokkr.domains.tau2.evaluator;

import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.model.GoldAction;

/** The per-reason results of grading, one boolean each, mirroring upstream's check models in {@code src/tau2/data_model/simulation.py}. */
public final class Checks {
    private Checks() {}

    /**
     * Upstream {@code DBCheck}: the agent DB and the user DB (null hashes on both sides when the domain
     * has no user DB) must both equal the gold environment's.
     */
    public record DbCheck(
            boolean dbMatch,
            String goldDbHash,
            String predictedDbHash,
            String goldUserDbHash,
            String predictedUserDbHash) {}

    /** Upstream {@code ActionCheck}: whether a gold action appears among the predicted tool calls. */
    public record ActionCheck(GoldAction action, boolean actionMatch) {}

    /** Upstream {@code CommunicateCheck}. */
    public record CommunicateCheck(String info, boolean met, String justification) {}

    /** Upstream {@code NLAssertionCheck}: as the judge returned it (its own restatement of the assertion). */
    public record NlAssertionCheck(String nlAssertion, boolean met, String justification) {}

    /** Upstream {@code EnvAssertionCheck}; {@code error} is what the assertion's function raised (not met then), else null. */
    public record EnvAssertionCheck(EnvAssertion assertion, boolean met, String error) {
        public EnvAssertionCheck(EnvAssertion assertion, boolean met) {
            this(assertion, met, null);
        }
    }
}
