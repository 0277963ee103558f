package brokkr.eval;

import brokkr.conversation.Candidate;
import brokkr.conversation.InfrastructureFailure;
import java.util.List;
import java.util.Optional;

/**
 * Re-judging a stored attempt's model-judged checks from its record: the judge is asked again about
 * the recorded transcript and nothing else runs (no candidate, no user simulator, no world). A
 * benchmark whose grade rests partly on a judge offers it as {@link BenchmarkProvider#rejudging()};
 * {@code brokkr.experiment.Regrade} runs it over an experiment's store and keeps the new verdicts
 * beside the recorded ones.
 */
public interface Rejudging {
    /**
     * The judge model as this benchmark asks it, for a provider and model named by a person (a
     * command line, a magic): the benchmark's own request settings for its judge (tau2: upstream's
     * temperature 0).
     */
    ModelRef judge(String provider, String model);

    /**
     * Asks {@code judge} again about a completed attempt of {@code env}. Empty when the attempt has no
     * judged check (the judge was not asked when it ran: the task has no judged component, or the
     * episode ended before grading). An {@link InfrastructureFailure} when the judge could not be
     * reached or answered in a shape the benchmark cannot read (as during the run, not a verdict).
     */
    Optional<Rejudged> rejudge(EnvironmentDef env, Attempt attempt, Candidate judge) throws InfrastructureFailure;

    /**
     * One judged statement: its text (the task's), the recorded verdict and the new one (null where
     * that judge's answer did not cover the statement), and the new judge's justification.
     */
    record Judgement(String statement, Boolean recorded, Boolean now, String justification) {
        public boolean agrees() {
            return recorded != null && recorded.equals(now);
        }
    }

    /** The new judge's verdicts and the reward and checks they give the attempt (its other checks as recorded). */
    record Rejudged(List<Judgement> judgements, double reward, List<Check> checks) {
        public Rejudged {
            judgements = List.copyOf(judgements);
            checks = List.copyOf(checks);
        }

        /** Upstream tau2 {@code is_successful}: reward within 1e-6 of 1, as {@link Attempt#success()}. */
        public boolean success() {
            return Math.abs(reward - 1.0) <= 1e-6;
        }
    }
}
