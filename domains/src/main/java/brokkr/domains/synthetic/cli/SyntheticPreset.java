package brokkr.domains.synthetic.cli;

import brokkr.command.Command;
import brokkr.command.ModelSource;
import brokkr.conversation.Candidate;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.value.PyDict;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * What {@code loop} and {@code parallel} share: their run is one cell of the benchmark ({@code loop},
 * {@code parallel} in the process's registry) planned by the one planner and run by the one runner, task = the size, the candidate a
 * benchmark's scripted one or a model; and the stderr side of the report (an infrastructure failure,
 * a model run's summary).
 */
final class SyntheticPreset {
    private SyntheticPreset() {}

    /** Evaluates task {@code a.size()} of {@code benchmark} with the arguments' candidate. */
    static Attempt run(Registry registry, String benchmark, BenchmarkArgs a, ModelSource models) {
        // The model is opened first: a bad provider configuration is the command's error, not an attempt's.
        Candidate model;
        try {
            model = a.model() == null ? null : models.open(a.provider(), a.model());
        } catch (IllegalArgumentException e) {
            throw new Command.InputException(e.getMessage()); // an unknown provider, a key that is not set
        }
        BenchmarkProvider provider = registry.benchmark(benchmark);
        EnvironmentDef env;
        try {
            env = provider.environment(String.valueOf(a.size()), Map.of());
        } catch (IllegalArgumentException e) {
            throw new Command.UsageException(e.getMessage());
        }
        ModelRef ref = model == null
                ? new ModelRef(BenchmarkProvider.SCRIPTED, a.candidate())
                : new ModelRef(a.provider(), a.model());
        ExperimentSpec.CandidateSpec candidate = new ExperimentSpec.CandidateSpec(
                a.model() == null ? a.candidate() : ref.toString(), ref, "tools", null);
        Plan plan;
        try {
            plan = Planner.cells(
                    provider, List.of(env.taskId()), Map.of(), PyDict.empty(), List.of(candidate), 1, r -> model);
        } catch (IllegalArgumentException e) {
            throw new Command.UsageException(e.getMessage()); // an unknown scripted candidate
        }
        return Runner.attempts(plan, Policy.of(1)).getFirst();
    }

    /** Reports an attempt that was not scored (nothing goes to stdout) and says whether there was one. */
    static boolean failed(Attempt a, String command, PrintStream err) {
        if (a.completed()) return false;
        String error = a.error() == null ? "" : a.error();
        if (error.startsWith(Evaluation.INFRASTRUCTURE_FAILURE)) {
            err.println("brokkr " + command + ": infrastructure failure, run not scored: "
                    + error.substring(Evaluation.INFRASTRUCTURE_FAILURE.length()) + " ("
                    + a.evidence().modelCalls().size() + " model call attempts)");
        } else {
            err.println("brokkr " + command + ": " + error);
        }
        return true;
    }

    /** One diagnostic line for a model run: steps, attempts, tokens and why the run stopped. */
    static void summary(Attempt a, PrintStream err) {
        Evidence e = a.evidence();
        long steps = e.transcript().asList().stream()
                .filter(m -> m.asDict().get("role").asStr().equals("assistant"))
                .count();
        err.printf(
                "steps=%d modelCalls=%d inputTokens=%d outputTokens=%d stop=%s%n",
                steps,
                e.modelCalls().size(),
                e.agentUsage().inputTokens(),
                e.agentUsage().outputTokens(),
                e.termination());
    }
}
