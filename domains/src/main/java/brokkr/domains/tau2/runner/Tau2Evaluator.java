package brokkr.domains.tau2.runner;

import static brokkr.domains.tau2.runner.Tau2Benchmark.GOLD;
import static brokkr.domains.tau2.runner.Tau2Benchmark.GOLD_BATCH;
import static brokkr.domains.tau2.runner.Tau2Benchmark.KNOWN_VERDICT;
import static brokkr.domains.tau2.runner.Tau2Benchmark.STOP;

import brokkr.conversation.InfrastructureFailure;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.evaluator.Checks;
import brokkr.domains.tau2.evaluator.EnvEvaluator;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.evaluator.ModelNlJudge;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.evaluator.ScriptedVerdictJudge;
import brokkr.domains.tau2.evaluator.Tau2Grader;
import brokkr.domains.tau2.model.RewardType;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.Tau2Transcript;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.eval.AgentDef;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Check;
import brokkr.eval.Evaluator;
import brokkr.eval.FinishedRun;
import brokkr.eval.ModelRef;
import brokkr.eval.Models;
import brokkr.eval.TrustTier;
import brokkr.eval.Verdict;
import brokkr.value.PyDict;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tau2 benchmark's evaluator: upstream's grading ({@link Tau2Grader}) of the recorded transcript against the
 * observed final world, as one check per reason to lose: {@code setup_verified}, {@code terminated_normally} and
 * each reward component in the task's basis ({@code db}, {@code env_assertion}, {@code action},
 * {@code nl_assertion}, {@code communicate}, upstream's order). Components outside the basis cannot lose a task,
 * so they are not checks; they stay in the details (the full grade) as upstream keeps them as diagnostics.
 *
 * <p>Grading uses what the attempt already built where it is the same value ({@link Tau2AttemptMemo}): the
 * setup's initial world and hash, the protocol's trajectory and synced final world; a run graded elsewhere (a
 * branch, a stored record) decodes the transcript and the fork and rebuilds the initial world.
 */
final class Tau2Evaluator {
    private Tau2Evaluator() {}

    /** The check an episode stopped by its cell's budget fails (no other episode has it). */
    static final String WITHIN_CELL_BUDGET = "within_cell_budget";

    static Evaluator of(Tau2Benchmark benchmark) {
        return (run, models) -> {
            Tau2Domain d = benchmark.domain();
            TaskSpec task = d.task(run.env().taskId());
            EpisodeEnvironment<Worlds> env = d.environment();
            TerminationReason reason = termination(run.interaction().termination());
            Observed seen = observed(run, env, task);
            Value recorded = run.setupEvidence().get("initial_db_hash");
            boolean setup = recorded instanceof PyStr s && s.value().equals(seen.initialDbHash());
            var evidence = EnvEvaluator.evidence(env, task, seen.finalWorld());
            ModelRef judgeRef = run.env().models().get("judge");
            Grade g;
            try {
                g = Tau2Grader.grade(
                        task,
                        seen.trajectory(),
                        reason.isNormalStop(),
                        reason.value(),
                        evidence,
                        judge(judgeRef, run.agent(), models));
            } catch (NlJudge.JudgeFormatException e) {
                // Upstream's evaluation raises on an unparsable judge answer and its runner records an
                // infrastructure error: not the candidate's fault. The judge's calls are recorded already.
                throw new InfrastructureFailure("judge: " + e.getMessage(), List.of(), e);
            } catch (InfrastructureFailure e) {
                // The judge's model could not be reached: the failure names the role, as above.
                throw new InfrastructureFailure("judge: " + e.getMessage(), e.attempts(), e);
            }
            List<Check> checks = new ArrayList<>();
            checks.add(new Check("setup_verified", setup));
            checks.add(new Check("terminated_normally", reason.isNormalStop()));
            // Only an episode the cell's budget stopped has this check (failed): experiment show --checks counts them.
            if (reason == TerminationReason.CELL_BUDGET) checks.add(new Check(WITHIN_CELL_BUDGET, false));
            checks.addAll(componentChecks(g, task));
            TrustTier trust = g.judge() == null
                    ? TrustTier.DETERMINISTIC
                    : judgeRef.provider().equals(BenchmarkProvider.SCRIPTED)
                            ? TrustTier.SELF_REPORTED
                            : TrustTier.MODEL_JUDGED;
            PyDict details = PyDict.of("termination", reason.value(), "grade", g.toValue());
            // A cell budget's stop says what was spent of what (the orchestrator's note), beside the grade.
            if (reason == TerminationReason.CELL_BUDGET
                    && run.interaction().output().get("note") instanceof brokkr.value.PyStr note)
                details = PyDict.of("termination", reason.value(), "stopped", note, "grade", g.toValue());
            return new Verdict(checks, setup ? g.reward() : 0.0, trust, details);
        };
    }

    /** What grading reads of the run: the task's initial DB hash, the trajectory and the final world. */
    private record Observed(String initialDbHash, List<Tau2Message> trajectory, Worlds finalWorld) {}

    private static Observed observed(FinishedRun run, EpisodeEnvironment<Worlds> env, TaskSpec task) {
        Tau2AttemptMemo.Setup setup = Tau2AttemptMemo.setupWithEvidence(run.setupEvidence());
        Tau2AttemptMemo.Episode episode =
                Tau2AttemptMemo.episode(run.interaction().transcript(), run.finalWorld());
        Tau2AttemptMemo.clear(); // read once: the thread's next attempt sets up its own
        Worlds initial = setup != null ? setup.initial() : env.initialWorld(task);
        String initialHash = setup != null ? setup.dbHash() : env.dbHash(initial);
        if (episode != null) return new Observed(initialHash, episode.trajectory(), episode.finalWorld());
        return new Observed(
                initialHash,
                Tau2Transcript.fromValue(run.interaction().transcript()),
                Tau2Fork.decode(run.finalWorld(), initial));
    }

    /**
     * One check per reward component in the task's basis: the component's reward when upstream
     * evaluated it; after a premature termination (nothing is evaluated upstream, the reward is 0) the
     * deterministic components' diagnostics, and no NL check since no judge is asked.
     */
    static List<Check> componentChecks(Grade g, TaskSpec task) {
        List<Check> out = new ArrayList<>();
        if (task.criteria() == null) return out;
        for (RewardType t : List.of(
                RewardType.DB,
                RewardType.ENV_ASSERTION,
                RewardType.ACTION,
                RewardType.NL_ASSERTION,
                RewardType.COMMUNICATE)) {
            if (!task.criteria().basisIncludes(t)) continue;
            String name = t.name().toLowerCase(Locale.ROOT);
            Double r = g.breakdown().get(t);
            if (r != null) {
                out.add(new Check(name, r == 1.0));
                continue;
            }
            switch (t) {
                // Upstream's short cut (no actions, no env assertions): no DB entry, the DB counts as matched.
                case DB -> out.add(new Check(name, g.db() == null || g.db().dbMatch()));
                case ENV_ASSERTION ->
                    out.add(new Check(name, g.envAssertions().stream().allMatch(Checks.EnvAssertionCheck::met)));
                case ACTION -> out.add(new Check(name, g.actions().stream().allMatch(Checks.ActionCheck::actionMatch)));
                case COMMUNICATE ->
                    out.add(new Check(name, g.communicate().stream().allMatch(Checks.CommunicateCheck::met)));
                case NL_ASSERTION -> {} // not evaluated: the judge was not asked
            }
        }
        return out;
    }

    /**
     * The NL judge named by the environment: the known-verdict judge, which only the scripted candidates
     * have a verdict for, or a judge model (a scripted one too) asked with upstream's prompt.
     */
    private static NlJudge judge(ModelRef ref, AgentDef agent, Models models) {
        return isKnownVerdict(ref) ? knownVerdict(agent) : new ModelNlJudge(ref.toString(), models.model("judge"));
    }

    private static boolean isKnownVerdict(ModelRef ref) {
        return ref.provider().equals(BenchmarkProvider.SCRIPTED) && ref.model().equals(KNOWN_VERDICT);
    }

    /** The name of the judge {@code judge} is for {@code agent}'s episodes (a scripted judge's name says which verdict it knows). */
    static String judgeName(ModelRef judge, AgentDef agent) {
        return isKnownVerdict(judge) ? knownVerdict(agent).name() : judge.toString();
    }

    /**
     * The one rule mapping a candidate to the scripted judge: the gold replay meets every assertion
     * ({@code scripted-gold-verdict}), stopping at once none ({@code scripted-all-unmet}); any other
     * candidate has no known verdict, and a task that needs one fails.
     */
    private static NlJudge knownVerdict(AgentDef agent) {
        boolean scripted = agent.provider().equals(BenchmarkProvider.SCRIPTED);
        if (scripted && (agent.model().equals(GOLD) || agent.model().equals(GOLD_BATCH)))
            return ScriptedVerdictJudge.goldVerdict();
        if (scripted && agent.model().equals(STOP)) return ScriptedVerdictJudge.allUnmet();
        return new NlJudge() {
            @Override
            public String name() {
                return "scripted-" + KNOWN_VERDICT;
            }

            @Override
            public NlJudge.Verdict judge(List<Tau2Message> trajectory, List<String> nlAssertions) {
                throw new IllegalArgumentException("the known-verdict judge has no verdict for candidate "
                        + agent.modelRef() + "; name a judge model (the experiment's 'judge')");
            }
        };
    }

    static TerminationReason termination(String value) {
        for (TerminationReason r : TerminationReason.values()) if (r.value().equals(value)) return r;
        throw new IllegalArgumentException("unknown termination reason '" + value + "'");
    }
}
