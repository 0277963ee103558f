package brokkr.domains.tau2.conformance;

import brokkr.conversation.InfrastructureFailure;
import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.EpisodeEnvironment.Call;
import brokkr.domains.tau2.environment.EpisodeEnvironment.GradingReplay;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.evaluator.EnvEvaluator;
import brokkr.domains.tau2.evaluator.EnvEvidence;
import brokkr.domains.tau2.evaluator.Grade;
import brokkr.domains.tau2.evaluator.NlJudge;
import brokkr.domains.tau2.evaluator.Tau2Grader;
import brokkr.domains.tau2.model.Requestor;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.model.Tau2Message;
import brokkr.domains.tau2.model.TerminationReason;
import brokkr.python.PyJson;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Upstream's {@code tau2 evaluate-trajs} ({@code scripts.evaluate_trajectories.compute_simulation_rewards})
 * with Brokkr's grader: every simulation of a results file or graded corpus ({@link UpstreamRecords}) is graded
 * again from its recorded messages and termination reason as {@code evaluate_simulation(..., EvaluationType.ALL)}
 * grades it, and the Brokkr {@code RewardInfo} ({@link UpstreamRewardInfo}) is compared with the recorded one
 * component by component; with the recorded judge exchanges the judge requests are compared byte for byte too.
 *
 * <p>Grading follows upstream's order of environments in one process (what telecom's bill-id draws depend
 * on): the live episode's calls first (replayed from the trajectory, every call, as the orchestrator made
 * them), then the predicted environment ({@code set_state} on the trajectory, {@link EpisodeEnvironment#gradingReplay}),
 * then the gold environment; env assertions run on the predicted one.
 */
public final class Tau2Regrade {
    private Tau2Regrade() {}

    /**
     * What re-grading needs of a domain: its environment and its tasks by id (an unknown id is an
     * {@link IllegalArgumentException}). The runner builds it from the registry's domain.
     */
    public record Domain(EpisodeEnvironment<Worlds> environment, Function<String, TaskSpec> tasks) {}

    /** One simulation re-graded: Brokkr's reward info (null when grading could not run) and every difference found. */
    public record Outcome(UpstreamSimulation simulation, PyDict rewardInfo, List<String> differences) {
        public Outcome {
            differences = List.copyOf(differences);
        }

        public boolean matches() {
            return differences.isEmpty();
        }
    }

    /** A file re-graded, outcomes in file order. */
    public record Report(List<Outcome> outcomes) {
        public Report {
            outcomes = List.copyOf(outcomes);
        }

        public int simulations() {
            return outcomes.size();
        }

        public int mismatches() {
            return (int) outcomes.stream().filter(o -> !o.matches()).count();
        }

        /** The closing line {@code tau2 evaluate} prints. */
        public String summaryLine() {
            return simulations() + " simulations, " + mismatches() + " mismatches";
        }
    }

    /**
     * Re-grades every simulation of {@code file}; for each mismatch prints its label, task and first difference.
     *
     * @param domains the domain of an upstream name
     * @param judge   the NL judge, or null to answer with the recorded verdicts
     */
    public static Report evaluate(Path file, Function<String, Domain> domains, NlJudge judge, PrintStream out) {
        UpstreamRecords.Contents contents = UpstreamRecords.read(file);
        Map<String, Domain> loaded = new HashMap<>();
        List<Outcome> outcomes = new ArrayList<>();
        // One process recorded the file: state outside the DBs carries from one simulation's environments to the next.
        Map<String, Worlds> process = new HashMap<>();
        for (UpstreamSimulation sim : contents.simulations()) {
            Domain d;
            try {
                d = loaded.computeIfAbsent(sim.domain(), domains);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(sim.label() + ": " + e.getMessage(), e);
            }
            Graded graded = grade(sim, d, judge, process.get(sim.domain()));
            if (graded.processEnd() != null) process.put(sim.domain(), graded.processEnd());
            Outcome o = graded.outcome();
            if (!o.matches() && out != null) {
                out.println(sim.label() + " task " + sim.taskId() + (sim.trial() == null ? "" : " trial " + sim.trial())
                        + ": " + o.differences().getFirst()
                        + (o.differences().size() > 1 ? " (+" + (o.differences().size() - 1) + " more)" : ""));
            }
            outcomes.add(o);
        }
        return new Report(outcomes);
    }

    /** Re-grades one simulation as the first of its process. */
    public static Outcome regrade(UpstreamSimulation sim, Domain domain, NlJudge judge) {
        return grade(sim, domain, judge, null).outcome();
    }

    /**
     * Brokkr's {@code RewardInfo} of a simulation, the NL assertions answered by the verdicts in
     * {@code sim.rewardInfo().nl_assertions} (what an exporter knows of its own judge): the reward info as
     * upstream's evaluator would record it. Grading failures are {@link IllegalStateException}s.
     */
    public static PyDict rewardInfo(UpstreamSimulation sim, Domain domain) {
        Outcome o = regrade(sim, domain, null);
        if (o.rewardInfo() == null)
            throw new IllegalStateException(sim.label() + ": " + String.join("; ", o.differences()));
        return o.rewardInfo();
    }

    /** An outcome and the worlds the simulation's last environment left (the process's state), null if none was built. */
    private record Graded(Outcome outcome, Worlds processEnd) {}

    private static Graded grade(UpstreamSimulation sim, Domain domain, NlJudge judge, Worlds previous) {
        List<String> differences = new ArrayList<>();
        TaskSpec task;
        try {
            task = domain.tasks().apply(sim.taskId());
        } catch (IllegalArgumentException e) {
            return new Graded(new Outcome(sim, null, List.of(e.getMessage())), null);
        }
        RecordedJudge recorded = judge == null ? new RecordedJudge(sim.judgeCalls(), sim.rewardInfo()) : null;
        PyDict mine;
        Worlds[] end = {null};
        try {
            mine = rewardInfo(sim, domain, task, judge != null ? judge : recorded, differences, previous, end);
        } catch (RuntimeException | InfrastructureFailure e) {
            differences.add("Brokkr's grading failed: " + e);
            mine = null;
        }
        if (recorded != null) {
            differences.addAll(recorded.differences());
            if (recorded.unused() > 0)
                differences.add("judge: upstream asked its judge " + recorded.unused() + " more time(s) than Brokkr");
        }
        if (mine != null) {
            if (sim.rewardInfo() == null) {
                differences.add("the record has no reward_info");
            } else {
                for (String field : UpstreamRewardInfo.FIELDS) {
                    String d =
                            firstDifference(field, sim.rewardInfo().getOrDefault(field, PyNone.NONE), mine.get(field));
                    if (d != null) differences.add(d);
                }
            }
        }
        return new Graded(new Outcome(sim, mine, differences), end[0]);
    }

    private static PyDict rewardInfo(
            UpstreamSimulation sim,
            Domain domain,
            TaskSpec task,
            NlJudge judge,
            List<String> differences,
            Worlds previous,
            Worlds[] processEnd)
            throws InfrastructureFailure {
        TerminationReason reason = termination(sim.termination());
        EpisodeEnvironment<Worlds> env = domain.environment();
        UpstreamMessages.Parsed parsed = UpstreamMessages.parse(sim.messages());
        Grade g;
        Worlds live = liveReplay(env, env.initialWorld(task, previous), parsed.trajectory());
        processEnd[0] = live;
        if (!reason.isNormalStop()) {
            // evaluate_simulation returns before any evaluator runs: no environment is built.
            g = Tau2Grader.grade(
                    task,
                    parsed.trajectory(),
                    false,
                    reason.value(),
                    new EnvEvidence(null, null, null, null, List.of(), List.of()),
                    judge);
        } else {
            GradingReplay<Worlds> predicted = env.gradingReplay(task, live, parsed.calls());
            differences.addAll(predicted.differences().stream()
                    .map(d -> "strict replay (upstream raises here): " + d)
                    .toList());
            EnvEvidence evidence = EnvEvaluator.evidence(env, task, predicted.world());
            processEnd[0] = env.goldReplay(task, predicted.world()).world();
            g = Tau2Grader.grade(task, parsed.trajectory(), true, reason.value(), evidence, judge);
        }
        return UpstreamRewardInfo.of(g, task, env::toolType);
    }

    /**
     * The live episode's environment at its end: every tool-call message answered by tool results runs as the
     * orchestrator ran it ({@code get_response} per call, then {@code sync_tools}), from the task's initial world
     * in the process the run's earlier simulations left.
     */
    static Worlds liveReplay(EpisodeEnvironment<Worlds> env, Worlds initial, List<Tau2Message> t) {
        Worlds w = initial;
        for (int i = 0; i < t.size(); i++) {
            if (t.get(i) instanceof Tau2Message.Participant p
                    && p.isToolCall()
                    && i + 1 < t.size()
                    && t.get(i + 1) instanceof Tau2Message.ToolResult) {
                Requestor requestor = p instanceof Tau2Message.Agent ? Requestor.ASSISTANT : Requestor.USER;
                List<Call> calls = p.toolCalls().stream()
                        .map(c -> new Call(c.name(), c.arguments()))
                        .toList();
                w = env.sync(env.respondAll(w, requestor, calls).world());
            }
        }
        return w;
    }

    static TerminationReason termination(String value) {
        for (TerminationReason r : TerminationReason.values()) if (r.value().equals(value)) return r;
        throw new IllegalArgumentException("unknown termination reason '" + value + "'");
    }

    /** The first path at which two JSON values differ ({@code action_checks[2].action_match: upstream true, Brokkr false}), or null. */
    static String firstDifference(String path, Value upstream, Value brokkr) {
        if (PyJson.dumps(upstream).equals(PyJson.dumps(brokkr))) return null;
        if (upstream instanceof PyDict a && brokkr instanceof PyDict b) {
            if (!new ArrayList<>(a.keys()).equals(new ArrayList<>(b.keys()))) {
                return path + ": keys upstream " + a.keys() + ", Brokkr " + b.keys();
            }
            for (String k : a.keys()) {
                String d = firstDifference(path + "." + k, a.get(k), b.get(k));
                if (d != null) return d;
            }
        }
        if (upstream instanceof PyList a && brokkr instanceof PyList b) {
            if (a.size() != b.size()) return path + ": " + a.size() + " entries upstream, " + b.size() + " in Brokkr";
            for (int i = 0; i < a.size(); i++) {
                String d = firstDifference(path + "[" + i + "]", a.get(i), b.get(i));
                if (d != null) return d;
            }
        }
        return path + ": upstream " + clip(PyJson.dumps(upstream)) + ", Brokkr " + clip(PyJson.dumps(brokkr));
    }

    private static String clip(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }
}
