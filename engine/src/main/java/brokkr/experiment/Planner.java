package brokkr.experiment;

import brokkr.conversation.Candidate;
import brokkr.eval.AgentDef;
import brokkr.eval.AgentInterface;
import brokkr.eval.BenchmarkProvider;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.Evidence;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec.CandidateSpec;
import brokkr.experiment.ExperimentSpec.SpecException;
import brokkr.provider.HttpProvider;
import brokkr.repl.Harness;
import brokkr.run.Plan;
import brokkr.value.PyDict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The one planner: every face turns what it was asked (an experiment file, a command's preset, a
 * magic's arguments) into a {@link Plan} here, so every face parses {@code PROVIDER:MODEL} alike,
 * resolves providers and their aliases through the registry alike ({@link Registry#models}), and
 * refuses alike, before any cell runs: an unknown domain, split or task, an unknown model provider, a
 * scripted model its benchmark does not know, a harness or action space the domain does not host;
 * {@link #open} then opens the models (an unconfigured provider, a cache over a model whose requests it
 * cannot key by fail there).
 */
public final class Planner {
    private Planner() {}

    /** An experiment's cells, with models from the registry's factories as they are configured. */
    public static Plan plan(ExperimentSpec spec, Registry registry) {
        return plan(spec, registry, registry.resolver());
    }

    /**
     * The cells of a spec in order (domain, task, candidate, repetition), definitions resolved by the
     * providers, checked, models opened by {@code models} (the registry's resolver, with a command's environment). A provider's refusal (unknown split or task, a model role it needs but the spec
     * lacks) and a cell named twice are {@link SpecException}s.
     */
    public static Plan plan(ExperimentSpec spec, Registry registry, Function<ModelRef, Candidate> models) {
        List<Plan.Unit> units = new ArrayList<>();
        Set<List<Object>> seen = new HashSet<>();
        List<CandidateSpec> candidates = pinned(spec.candidates(), registry);
        Map<String, ModelRef> roles = pinned(spec.models(), registry);
        for (ExperimentSpec.DomainSpec d : spec.domains()) {
            BenchmarkProvider provider = registry.benchmark(d.name());
            List<String> tasks;
            try {
                tasks = d.split() != null ? provider.tasks(d.split()) : d.taskIds();
            } catch (IllegalArgumentException e) {
                throw new SpecException("domain " + d.name() + ": " + e.getMessage());
            }
            for (CandidateSpec c : candidates) checkHarness(provider, c);
            for (String task : tasks) {
                EnvironmentDef env = environment(provider, task, roles, d.options());
                for (CandidateSpec c : candidates) {
                    AgentDef agent = c.agentDef();
                    for (int r = 0; r < spec.repetitions(); r++) {
                        if (!seen.add(List.of(env.id(), agent.id(), r))) {
                            throw new SpecException("domain " + d.name() + ", task " + task + " is named twice");
                        }
                        units.add(new Plan.Unit(
                                new Evaluation.Cell(provider, env, agent, c.systemPrompt(), r), c.label()));
                    }
                }
            }
        }
        return checked(units, models, registry);
    }

    /**
     * A command's or a magic's cells: {@code tasks} of {@code provider} × {@code candidates} ×
     * {@code repetitions}, with models for the other roles and benchmark options, models opened by
     * {@code models} (the registry's resolver with the face's environment, or a test's own).
     */
    public static Plan cells(
            BenchmarkProvider provider,
            List<String> tasks,
            Map<String, ModelRef> roles,
            PyDict options,
            List<CandidateSpec> candidates,
            int repetitions,
            Function<ModelRef, Candidate> models) {
        return cells(provider, tasks, roles, options, candidates, repetitions, models, null);
    }

    /** As above, every provider checked against {@code registry} (when not null). */
    public static Plan cells(
            BenchmarkProvider provider,
            List<String> tasks,
            Map<String, ModelRef> roles,
            PyDict options,
            List<CandidateSpec> candidates,
            int repetitions,
            Function<ModelRef, Candidate> models,
            Registry registry) {
        if (repetitions < 1) throw new SpecException("repetitions must be at least 1, not " + repetitions);
        if (registry != null) {
            candidates = pinned(candidates, registry);
            roles = pinned(roles, registry);
        }
        for (CandidateSpec c : candidates) checkHarness(provider, c);
        List<Plan.Unit> units = new ArrayList<>();
        for (String task : tasks) {
            EnvironmentDef env = environment(provider, task, roles, options);
            for (CandidateSpec c : candidates) {
                for (int r = 0; r < repetitions; r++) {
                    units.add(new Plan.Unit(
                            new Evaluation.Cell(provider, env, c.agentDef(), c.systemPrompt(), r), c.label()));
                }
            }
        }
        return checked(units, models, registry);
    }

    /**
     * The candidates with their models pinned by their factories ({@link brokkr.eval.ModelFactory#pinned}: the
     * Claude Code CLI's version, ...), so that the content ids made from them change when those facts do.
     * Scripted models and providers the registry does not know are left as they are (the latter are refused
     * by {@link #checked}).
     */
    static List<CandidateSpec> pinned(List<CandidateSpec> candidates, Registry registry) {
        List<CandidateSpec> out = new ArrayList<>(candidates.size());
        for (CandidateSpec c : candidates) {
            ModelRef p = pinned(c.model(), registry);
            out.add(
                    p == c.model()
                            ? c
                            : new CandidateSpec(c.label(), p, c.actionSpace(), c.systemPrompt(), c.harness()));
        }
        return out;
    }

    static Map<String, ModelRef> pinned(Map<String, ModelRef> roles, Registry registry) {
        if (roles == null) return null;
        Map<String, ModelRef> out = new LinkedHashMap<>();
        roles.forEach((role, ref) -> out.put(role, pinned(ref, registry)));
        return out;
    }

    private static ModelRef pinned(ModelRef ref, Registry registry) {
        if (ref == null
                || ref.provider().equals(BenchmarkProvider.SCRIPTED)
                || !registry.models().containsKey(ref.provider())) return ref;
        try {
            return registry.model(ref.provider()).pinned(ref);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new SpecException("model " + ref + ": " + e.getMessage());
        }
    }

    /** Units already made (branches of a checkpoint, a probe's record), checked as a plan's are. */
    public static Plan of(List<Plan.Unit> units, Function<ModelRef, Candidate> models) {
        for (Plan.Unit u : units) checkHarness(u.cell().provider(), u.cell().agent(), u.candidate());
        return checked(units, models, null);
    }

    /**
     * A model as the command line and the magics name one: {@code PROVIDER:MODEL} (split at the first
     * colon), or a bare name for one of the benchmark's scripted models ({@code gold}, {@code gold-50}).
     */
    public static ModelRef modelRef(String spec) {
        if (spec == null || spec.isBlank())
            throw new IllegalArgumentException("a candidate is NAME (scripted) or PROVIDER:MODEL");
        int colon = spec.indexOf(':');
        if (colon < 0) return new ModelRef(BenchmarkProvider.SCRIPTED, spec);
        if (colon == 0 || colon == spec.length() - 1)
            throw new IllegalArgumentException("a candidate is NAME (scripted) or PROVIDER:MODEL, not '" + spec + "'");
        return new ModelRef(spec.substring(0, colon), spec.substring(colon + 1));
    }

    /**
     * A model that must be {@code PROVIDER:MODEL} (a judge, a user simulator: no scripted name), as
     * {@code option} takes it; IllegalArgumentException saying so for anything else.
     */
    public static ModelRef providerModel(String option, String spec) {
        int colon = spec == null ? -1 : spec.indexOf(':');
        if (colon <= 0 || colon == spec.length() - 1) {
            throw new IllegalArgumentException(
                    option + " takes PROVIDER:MODEL (e.g. openai:gpt-4.1), not '" + spec + "'");
        }
        return modelRef(spec);
    }

    /** Refuses a candidate whose harness and action space its benchmark does not host, naming what it does. */
    public static void checkHarness(BenchmarkProvider provider, CandidateSpec c) {
        checkHarness(provider, c.agentDef(), c.label());
    }

    static void checkHarness(BenchmarkProvider provider, AgentDef agent, String label) {
        String harness = Harness.fromValue(agent.harness()).kind();
        AgentInterface offered = provider.agentInterface();
        if (!offered.supports(harness, agent.actionSpace())) {
            throw new SpecException("domain " + provider.name() + ": candidate " + label + " asks for harness "
                    + harness + " with action space " + agent.actionSpace() + ", which " + provider.name()
                    + " does not support (supported: " + offered.described() + ")");
        }
        // The harness starts the Claude Code CLI itself: its model is the CLI's, so it comes from provider claude-code.
        if (harness.equals(Harness.CLAUDE_CODE) && !agent.provider().equals(Harness.CLAUDE_CODE)) {
            throw new SpecException("domain " + provider.name() + ": candidate " + label
                    + " asks for harness claude-code, which runs the Claude Code CLI: its model must be "
                    + "claude-code:MODEL, not " + agent.provider() + ":"
                    + agent.modelRef().model());
        }
    }

    private static EnvironmentDef environment(
            BenchmarkProvider provider, String task, Map<String, ModelRef> roles, PyDict options) {
        try {
            return provider.environment(task, roles, options);
        } catch (IllegalArgumentException e) {
            throw new SpecException("domain " + provider.name() + ", task " + task + ": " + e.getMessage());
        }
    }

    /**
     * The plan, checked: every non-scripted model's provider is one the registry knows (by name or
     * alias; none is checked when the models are a caller's own: {@code registry} null), and every
     * scripted model is one its benchmark knows (asked once per benchmark, role and model, for the
     * first task that uses it). Models are opened on first use, each once ({@link #open} opens them all).
     */
    private static Plan checked(List<Plan.Unit> units, Function<ModelRef, Candidate> factory, Registry registry) {
        Map<ModelRef, Candidate> open = new ConcurrentHashMap<>();
        Function<ModelRef, Candidate> models = ref -> open.computeIfAbsent(ref, factory);
        Set<List<Object>> checked = new HashSet<>();
        for (Plan.Unit u : units) {
            BenchmarkProvider provider = u.cell().provider();
            forEachRole(u, (role, ref) -> {
                if (!ref.provider().equals(BenchmarkProvider.SCRIPTED)) {
                    if (registry != null) registry.model(ref.provider());
                } else if (checked.add(List.of(provider.name(), role, ref))) {
                    try {
                        provider.scripted(role, ref, u.cell().env());
                    } catch (IllegalArgumentException e) {
                        throw new SpecException("domain " + provider.name() + ": " + e.getMessage());
                    }
                }
            });
        }
        return new Plan(units, models);
    }

    /**
     * Opens every model the plan calls, once each, before any cell runs: an unconfigured provider (a
     * missing key) fails here, not in every cell; and a {@code cache} over a model whose exact requests
     * it cannot key by (not an HTTP model) is refused.
     */
    public static Plan open(Plan plan, ExperimentSpec.CacheSpec cache) {
        for (Plan.Unit u : plan.units()) {
            forEachRole(u, (role, ref) -> {
                if (ref.provider().equals(BenchmarkProvider.SCRIPTED)) return;
                Candidate c;
                try {
                    c = plan.models().apply(ref);
                } catch (SpecException e) {
                    throw e;
                } catch (IllegalArgumentException e) {
                    // A provider that is unknown or has no key, or a model option out of range: the spec's
                    // error (the README's exit 2), named by candidate and role, before any cell runs.
                    throw new SpecException(
                            "candidate " + u.candidate() + ", " + role + " model " + ref + ": " + e.getMessage());
                }
                if (cache.covers(role, u.candidate()) && !(c instanceof HttpProvider)) {
                    throw new SpecException("cache: the " + role + " model " + ref + " of candidate " + u.candidate()
                            + " is not an HTTP model, whose exact requests the cache is keyed by");
                }
            });
        }
        return plan;
    }

    /**
     * The base URL each role's model of {@code u} is reached at (role to URL; scripted models and models
     * reached at no URL are left out), from the plan's models, opened once each.
     */
    public static Map<String, String> endpoints(Plan plan, Plan.Unit u) {
        Map<String, String> out = new java.util.TreeMap<>();
        forEachRole(u, (role, ref) -> {
            if (ref.provider().equals(BenchmarkProvider.SCRIPTED)) return;
            String url = plan.models().apply(ref).baseUrl();
            if (url != null) out.put(role, url);
        });
        return out;
    }

    private static void forEachRole(Plan.Unit u, java.util.function.BiConsumer<String, ModelRef> each) {
        Map<String, ModelRef> roles = new LinkedHashMap<>(u.cell().env().models());
        roles.put(Evidence.AGENT, u.cell().agent().modelRef());
        roles.forEach(each);
    }
}
