package brokkr.domains.tau2.evaluator;

import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.evaluator.Checks.EnvAssertionCheck;
import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The environment's part of a grade, as upstream's {@code EnvironmentEvaluator}
 * ({@code src/tau2/evaluator/evaluator_env.py}): the gold environment (the task's initial world with the gold
 * actions replayed the grader's way) against the episode's final world, and the task's env assertions run on
 * that final world. Upstream rebuilds the predicted world by replaying the trajectory's mutating calls; the
 * episode's final world is the same value because tools are deterministic.
 */
public final class EnvEvaluator {
    private EnvEvaluator() {}

    /** The gold environment's hashes, the final world's hashes and the env assertions on the final world. */
    public static <W> EnvEvidence evidence(EpisodeEnvironment<W> env, TaskSpec task, W finalWorld) {
        EpisodeEnvironment.GoldReplay<W> gold = env.goldReplay(task, finalWorld);
        List<EnvAssertionCheck> assertions = new ArrayList<>();
        List<EnvAssertion> declared = task.criteria() == null || task.criteria().envAssertions() == null
                ? List.of()
                : task.criteria().envAssertions();
        W w = finalWorld;
        for (EnvAssertion a : declared) {
            EpisodeEnvironment.AssertionOutcome<W> o = env.envAssertion(w, a);
            w = o.world();
            assertions.add(new EnvAssertionCheck(a, o.met(), o.error()));
        }
        return new EnvEvidence(
                env.dbHash(gold.world()),
                env.userDbHash(gold.world()),
                env.dbHash(finalWorld),
                env.userDbHash(finalWorld),
                assertions,
                gold.errors());
    }
}
