package brokkr.domains.tau2.orchestrator;

import brokkr.domains.tau2.environment.EpisodeEnvironment;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import brokkr.domains.tau2.evaluator.Checks.EnvAssertionCheck;
import brokkr.domains.tau2.model.EnvAssertion;
import brokkr.domains.tau2.evaluator.EnvEvidence;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.evaluator.Tau2Grader;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * One tau2 episode end to end, as upstream's {@code run_simulation} ({@code src/tau2/runner/simulation.py}):
 * the task's initial world, the half-duplex conversation, then grading. The predicted DB is the
 * episode's final world (upstream rebuilds it by replaying the trajectory's mutating calls and syncing,
 * which gives the same value because tools are deterministic); the gold DB comes from replaying the gold
 * actions the grader's way on a fresh initial world.
 */
public final class Episode {
    private Episode() {}

    public static <W> EpisodeResult run(EpisodeEnvironment<W> env, TaskSpec task, AgentSide agent, UserSide user,
                                    NlJudge judge, EpisodeOptions options) {
        if (task.hasMessageHistory()) {
            throw new IllegalArgumentException("task " + task.id() + " starts from a message history, which is not supported");
        }
        long start = System.nanoTime();
        W initial = env.initialWorld(task);
        Orchestrator.Run<W> run = Orchestrator.run(env, initial, agent, user, options);
        Grade grade = null;
        String gradingFailure = null;
        List<ModelCall> judgeCalls = List.of();
        W finalWorld = env.sync(run.finalWorld());
        try {
            EnvEvidence evidence = evidence(env, task, finalWorld);
            grade = Tau2Grader.grade(task, run.trajectory(), run.termination().isNormalStop(), run.termination().value(), evidence, judge);
            judgeCalls = grade.judgeCalls();
        } catch (InfrastructureFailure e) {
            gradingFailure = "judge: " + e.getMessage();
            judgeCalls = e.attempts();
        } catch (NlJudge.JudgeFormatException e) {
            gradingFailure = "judge: " + e.getMessage();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new EpisodeResult(task.id(), agent.name(), user.name(), judge == null ? null : judge.name(),
                run.trajectory(), run.termination(), run.note(), grade, gradingFailure,
                run.steps(), run.toolErrors(), run.agentUsage(), run.userUsage(), millis,
                run.agentCalls(), run.userCalls(), judgeCalls, env.dbHash(initial), env.dbHash(finalWorld));
    }

    /** The gold environment's hashes, the final world's hashes and the env assertions on the final world. */
    public static <W> EnvEvidence evidence(EpisodeEnvironment<W> env, TaskSpec task, W finalWorld) {
        EpisodeEnvironment.GoldReplay<W> gold = env.goldReplay(task, finalWorld);
        List<EnvAssertionCheck> assertions = new ArrayList<>();
        List<EnvAssertion> declared = task.criteria() == null || task.criteria().envAssertions() == null
                ? List.of() : task.criteria().envAssertions();
        W w = finalWorld;
        for (EnvAssertion a : declared) {
            EpisodeEnvironment.AssertionOutcome<W> o = env.envAssertion(w, a);
            w = o.world();
            assertions.add(new EnvAssertionCheck(a, o.met(), o.error()));
        }
        return new EnvEvidence(env.dbHash(gold.world()), env.userDbHash(gold.world()),
                env.dbHash(finalWorld), env.userDbHash(finalWorld), assertions, gold.errors());
    }
}
