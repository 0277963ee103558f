package brokkr.tau2.episode;

import brokkr.conversation.InfrastructureFailure;
import brokkr.conversation.ModelCall;
import brokkr.tau2.grading.Checks.EnvAssertionCheck;
import brokkr.tau2.grading.EnvAssertion;
import brokkr.tau2.grading.EnvEvidence;
import brokkr.tau2.grading.GoldAction;
import brokkr.tau2.grading.Grade;
import brokkr.tau2.grading.Grader;
import brokkr.tau2.grading.NlJudge;
import brokkr.tau2.grading.TaskSpec;
import brokkr.value.Value;
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

    public static EpisodeResult run(EpisodeEnvironment env, TaskSpec task, AgentSide agent, UserSide user,
                                    NlJudge judge, EpisodeOptions options) {
        if (task.hasMessageHistory()) {
            throw new IllegalArgumentException("task " + task.id() + " starts from a message history, which is not supported");
        }
        long start = System.nanoTime();
        Value initial = env.initialWorld(task);
        Orchestrator.Run run = Orchestrator.run(env, initial, agent, user, options);
        Grade grade = null;
        String gradingFailure = null;
        List<ModelCall> judgeCalls = List.of();
        Value finalWorld = env.sync(run.finalWorld());
        try {
            EnvEvidence evidence = evidence(env, task, finalWorld);
            grade = Grader.grade(task, run.trajectory(), run.termination().isNormalStop(), run.termination().value(), evidence, judge);
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
    public static EnvEvidence evidence(EpisodeEnvironment env, TaskSpec task, Value finalWorld) {
        GoldReplay gold = goldReplay(env, task);
        List<EnvAssertionCheck> assertions = new ArrayList<>();
        List<EnvAssertion> declared = task.criteria() == null || task.criteria().envAssertions() == null
                ? List.of() : task.criteria().envAssertions();
        Value w = finalWorld;
        for (EnvAssertion a : declared) {
            EpisodeEnvironment.AssertionOutcome o = env.envAssertion(w, a);
            w = o.world();
            assertions.add(new EnvAssertionCheck(a, o.met()));
        }
        return new EnvEvidence(env.dbHash(gold.world()), env.userDbHash(gold.world()),
                env.dbHash(finalWorld), env.userDbHash(finalWorld), assertions, gold.errors());
    }

    /** The grader's gold world and the errors its calls swallowed. */
    public record GoldReplay(Value world, List<String> errors) {}

    /** Upstream {@code EnvironmentEvaluator}'s gold environment: fresh, initial state, {@code make_tool_call} per gold action. */
    public static GoldReplay goldReplay(EpisodeEnvironment env, TaskSpec task) {
        Value w = env.initialWorld(task);
        List<String> errors = new ArrayList<>();
        List<GoldAction> gold = task.criteria() == null ? List.of() : task.criteria().actionsOrEmpty();
        for (GoldAction a : gold) {
            EpisodeEnvironment.GoldStep s = env.goldCall(w, a.requestor(), a.name(), a.arguments());
            w = s.world();
            if (s.error() != null) errors.add(a.name() + ": " + s.error());
        }
        return new GoldReplay(w, errors);
    }
}
