package brokkr.eval;

/**
 * How far a verdict can be trusted, recorded on every attempt so that a scorecard mixing tiers says so.
 * Ordered from most to least trusted.
 */
public enum TrustTier {
    /** Graded by deterministic code over the observed world and transcript (tau2 DB/action checks, BFCL AST). */
    DETERMINISTIC,
    /** Some check was decided by a model (tau2's NL-assertion judge): as good as the judge. */
    MODEL_JUDGED,
    /** The grade rests on data the run reported about itself, without independent observation. */
    SELF_REPORTED
}
