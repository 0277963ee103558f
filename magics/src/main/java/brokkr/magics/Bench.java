package brokkr.magics;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.ToolWorld;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A loaded domain as the magics use it: a benchmark provider of the one registry ({@link Benches})
 * and its {@link Exploration}. The domain's answers become the magics' views; its
 * IllegalArgumentException (an unknown task) and UnsupportedOperationException (no world to fork)
 * become usage errors. A run is one cell of the one evaluation path, as an experiment runs it.
 */
public record Bench(BenchmarkProvider provider, Exploration exploration) {
    /** The action space experiments give a candidate that names none. */
    static final String ACTION_SPACE = "tools";

    public String name() { return provider.name(); }

    public DomainSummary summary() { return DomainSummary.of(name(), exploration.summary()); }

    /** Every task, in the domain's order. */
    public List<Exploration.TaskRow> tasks() { return exploration.tasks(); }

    public TaskView task(String id) { return TaskView.of(name(), usage(() -> exploration.task(id))); }

    /** A fresh world for a task (or the domain's pristine world when {@code taskId} is null). */
    public ToolWorld fork(String taskId) { return usage(() -> exploration.fork(taskId)); }

    /** The scripted candidates {@link #run} offers. */
    public List<String> candidates() { return exploration.candidates(); }

    /**
     * One episode of a scripted candidate on a task: {@link Evaluation#evaluate} of the cell (task,
     * {@code provider: scripted, model: candidate}, repetition 0) with the task's environment as an
     * experiment that names no models defines it, read back through the domain's exploration.
     */
    public RunView run(String candidate, String taskId) {
        List<String> offered = candidates();
        if (offered.isEmpty()) {
            throw new MagicUsageException(name() + " offers no scripted candidate for a single run: run it in an experiment"
                    + " (%%experiment with domain: " + name() + ")");
        }
        if (!offered.contains(candidate)) {
            throw new MagicUsageException("unknown " + name() + " candidate '" + candidate + "' (one of " + String.join(", ", offered) + ")");
        }
        usage(() -> exploration.task(taskId));
        EnvironmentDef env = usage(() -> provider.environment(taskId, Map.of()));
        AgentDef agent = AgentDef.of(new ModelRef(BenchmarkProvider.SCRIPTED, candidate), ACTION_SPACE, null);
        Attempt a = Evaluation.evaluate(new Evaluation.Cell(provider, env, agent, null, 0), ref -> {
            throw new IllegalStateException("a single run plays the domain's scripted models only, not " + ref);
        }, new Evaluation.Recorder());
        return RunView.of(name(), candidate, a, a.completed() ? exploration.report(a) : null);
    }

    private static <T> T usage(Supplier<T> answer) {
        try {
            return answer.get();
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }
}
