package brokkr.magics;

import brokkr.conversation.Candidate;
import brokkr.eval.Attempt;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.Evaluation;
import brokkr.eval.Exploration;
import brokkr.eval.ModelRef;
import brokkr.eval.ToolWorld;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Planner;
import brokkr.experiment.Registry;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import brokkr.repl.Harness;
import brokkr.run.Policy;
import brokkr.run.Runner;
import brokkr.telemetry.GenAiTrace;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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

    public String name() {
        return provider.name();
    }

    public DomainSummary summary() {
        return DomainSummary.of(name(), exploration.summary());
    }

    /** Every task, in the domain's order. */
    public List<Exploration.TaskRow> tasks() {
        return exploration.tasks();
    }

    public TaskView task(String id) {
        return TaskView.of(name(), usage(() -> exploration.task(id)));
    }

    /** A fresh world for a task (or the domain's pristine world when {@code taskId} is null). */
    public ToolWorld fork(String taskId) {
        return usage(() -> exploration.fork(taskId));
    }

    /** The scripted candidates {@link #run} offers. */
    public List<String> candidates() {
        return exploration.candidates();
    }

    /**
     * One episode of a scripted candidate on a task: the cell run by the one runner (task,
     * {@code provider: scripted, model: candidate}, repetition 0) with the task's environment as an
     * experiment that names no models defines it, read back through the domain's exploration.
     */
    public RunView run(String candidate, String taskId) {
        return run(plan(candidate, taskId, Map.of(), Session.current().registry()), () -> {});
    }

    /**
     * A single run, checked and ready: its plan (one cell; the models it calls made once, by the
     * registry's one resolver: keys and base URLs come from the environment) and the candidate's label.
     */
    public record Plan(brokkr.run.Plan plan, String candidate) {
        public Evaluation.Cell cell() {
            return plan.units().getFirst().cell();
        }

        /** Whether any role is played by a model rather than the domain's scripted ones. */
        public boolean usesModels() {
            return plan.usesModels();
        }
    }

    /**
     * Checks a run's arguments and makes its models. {@code candidate} is a scripted candidate's name or
     * {@code PROVIDER:MODEL}; {@code roles} gives models for the domain's other {@link Exploration#modelRoles}
     * as {@code PROVIDER:MODEL}, all of which a model candidate needs. Every problem is a usage error,
     * before anything runs.
     */
    public Plan plan(String candidate, String taskId, Map<String, String> roles, Registry registry) {
        return plan(candidate, taskId, roles, registry, Harness.DEFAULT_REFERENCE, ACTION_SPACE);
    }

    /**
     * As above, the candidate driven by {@code harness} in {@code actionSpace} (e.g. Brokkr's loop with the
     * Java REPL), planned by the one planner: a harness the domain does not host is refused, naming those it does.
     */
    public Plan plan(
            String candidate,
            String taskId,
            Map<String, String> roles,
            Registry registry,
            Harness harness,
            String actionSpace) {
        List<String> offered = candidates();
        ModelRef agent = modelRef("--candidate", candidate);
        if (agent == null || agent.provider().equals(BenchmarkProvider.SCRIPTED)) {
            String scripted = agent == null ? candidate : agent.model();
            if (offered.isEmpty()) {
                throw new MagicUsageException(name()
                        + " offers no scripted candidate for a single run: give a model as --candidate PROVIDER:MODEL"
                        + " or run it in an experiment (%%experiment with domain: " + name() + ")");
            }
            if (!offered.contains(scripted)) {
                throw new MagicUsageException("unknown " + name() + " candidate '" + scripted + "' (one of "
                        + String.join(", ", offered) + ", or a model as PROVIDER:MODEL, e.g. openai:gpt-4.1)");
            }
            agent = new ModelRef(BenchmarkProvider.SCRIPTED, scripted);
        }
        Map<String, ModelRef> given = new LinkedHashMap<>();
        List<String> known = exploration.modelRoles().stream()
                .map(Exploration.ModelRole::role)
                .toList();
        roles.forEach((role, spec) -> {
            if (spec == null) return;
            if (!known.contains(role))
                throw new MagicUsageException(name() + " takes no --" + role + " model"
                        + (known.isEmpty()
                                ? " (its agent is the only model)"
                                : " (its roles: " + String.join(", ", known) + ")"));
            ModelRef ref = modelRef("--" + role, spec);
            if (ref == null)
                throw new MagicUsageException(
                        "--" + role + " takes PROVIDER:MODEL (e.g. openai:gpt-4.1), not '" + spec + "'");
            given.put(role, ref);
        });
        boolean modelAgent = !agent.provider().equals(BenchmarkProvider.SCRIPTED);
        if (modelAgent) {
            List<String> missing = new ArrayList<>();
            for (Exploration.ModelRole r : exploration.modelRoles()) {
                if (!given.containsKey(r.role())) missing.add("--" + r.role() + " PROVIDER:MODEL (" + r.plays() + ")");
            }
            if (!missing.isEmpty()) {
                throw new MagicUsageException(
                        "a model candidate on " + name() + " also needs " + String.join(" and ", missing));
            }
        }
        usage(() -> exploration.task(taskId));
        ExperimentSpec.CandidateSpec c = new ExperimentSpec.CandidateSpec(candidate, agent, actionSpace, null, harness);
        return new Plan(
                usage(() -> Planner.open(
                        Planner.cells(
                                provider,
                                List.of(taskId),
                                given,
                                PyDict.empty(),
                                List.of(c),
                                1,
                                registry.resolver(),
                                registry),
                        ExperimentSpec.CacheSpec.NONE)),
                candidate);
    }

    /**
     * Runs a plan through the one runner; {@code onModelCall} hears of each call to one of its models as
     * it starts (the live display counts them). A protocol may ask for a planned model with options of
     * its own (tau2's per-trial seed): that variant is made by the same resolver.
     */
    public RunView run(Plan plan, Runnable onModelCall) {
        return run(plan, onModelCall, GenAiTrace.OFF);
    }

    /** As above, the run's spans to {@code trace} ({@code %run --otel}). */
    public RunView run(Plan plan, Runnable onModelCall, GenAiTrace trace) {
        Function<ModelRef, Candidate> planned = plan.plan().models();
        brokkr.run.Plan counted = new brokkr.run.Plan(plan.plan().units(), ref -> {
            Candidate c = planned.apply(ref);
            return (history, tools) -> {
                onModelCall.run();
                return c.next(history, tools);
            };
        });
        Attempt a = Runner.attempts(counted, Policy.of(1).withTrace(trace)).getFirst();
        return RunView.of(
                name(),
                plan.candidate(),
                a,
                a.completed() ? exploration.report(a) : null,
                exploration.files(a).orElse(null));
    }

    /** {@code PROVIDER:MODEL} as a model reference (the planner's parse); null for a word without a colon (a scripted name). */
    public static ModelRef modelRef(String option, String spec) {
        if (spec == null || spec.indexOf(':') < 0) return null;
        try {
            return Planner.providerModel(option, spec);
        } catch (IllegalArgumentException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }

    private static <T> T usage(Supplier<T> answer) {
        try {
            return answer.get();
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new MagicUsageException(e.getMessage());
        }
    }
}
