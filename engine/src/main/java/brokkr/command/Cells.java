package brokkr.command;

import brokkr.conversation.Candidate;
import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.run.Plan;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.run.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How a family's commands run the cells they chose ({@code tau2 run}, {@code bfcl run}): checked by the
 * one planner ({@link Planner#of}: a harness the domain does not host, a scripted model it does not know
 * are usage errors) and run by the one runner, {@code parallelism} at a time, each attempt handed on in
 * cell order as soon as it and those before it are done. Nothing is stored: the commands print their
 * own reports.
 */
public final class Cells {
    private Cells() {}

    /** Runs {@code cells}, {@code parallelism} at a time, and gives {@code inOrder} each attempt in cell order. */
    public static void run(
            List<Evaluation.Cell> cells,
            Function<ModelRef, Candidate> models,
            int parallelism,
            Consumer<Attempt> inOrder)
            throws InterruptedException {
        List<Plan.Unit> units = new ArrayList<>(cells.size());
        for (Evaluation.Cell c : cells) units.add(new Plan.Unit(c, label(c.agent())));
        Plan plan;
        try {
            plan = Planner.of(units, models);
        } catch (ExperimentSpec.SpecException e) {
            throw new Command.UsageException(e.getMessage());
        }
        Runner.run(plan, Policy.of(parallelism), Sink.ordered(inOrder));
        if (Thread.interrupted()) throw new InterruptedException("interrupted while running cells");
    }

    /** All attempts of {@link #run}, in cell order. */
    public static List<Attempt> all(List<Evaluation.Cell> cells, Function<ModelRef, Candidate> models, int parallelism)
            throws InterruptedException {
        List<Attempt> out = new ArrayList<>(cells.size());
        run(cells, models, parallelism, out::add);
        return out;
    }

    /** A candidate's label: its scripted name, or PROVIDER:MODEL. */
    static String label(AgentDef agent) {
        return agent.provider().equals(BenchmarkProvider.SCRIPTED)
                ? agent.model()
                : agent.provider() + ":" + agent.model();
    }

    /**
     * Model references as candidates of the registry's one resolver (provider names and aliases as in
     * experiment files and the magics), keys and base URLs read from {@code env}, each reference opened once.
     */
    public static Function<ModelRef, Candidate> providers(Registry registry, Map<String, String> env) {
        return cached(registry.resolver(env));
    }

    /** {@code open} once per model reference (a candidate may be used from several threads at once). */
    public static Function<ModelRef, Candidate> cached(Function<ModelRef, Candidate> open) {
        Map<ModelRef, Candidate> cache = new ConcurrentHashMap<>();
        return ref -> cache.computeIfAbsent(ref, open);
    }
}
