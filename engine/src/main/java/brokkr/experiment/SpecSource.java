package brokkr.experiment;

import brokkr.eval.ModelRef;
import brokkr.repl.Harness;
import brokkr.sandbox.SandboxConfig;
import brokkr.value.PyBool;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * An experiment as an experiment file would say it, whole: what {@link ExperimentSpec#fromValue} reads
 * back into the same spec. The stored {@link ExperimentSpec#toValue} names system prompts by sha256
 * only; a fleet worker on another machine has neither the experiment file nor its
 * {@code system_prompt_file}s, so the queue keeps this form (prompts inline) and every worker plans the
 * experiment's cells from it ({@link FleetQueue}).
 */
final class SpecSource {
    private SpecSource() {}

    /** The spec in the experiment file's own keys (prompts inline, no {@code cache_file}: the fleet's cache is the store). */
    static PyDict of(ExperimentSpec spec) {
        List<Value> domains = new ArrayList<>();
        for (ExperimentSpec.DomainSpec d : spec.domains()) {
            PyDict.Builder b = PyDict.builder().put("name", d.name());
            if (d.split() != null) b.put("split", d.split());
            else b.put("tasks", d.taskIds());
            if (!d.options().isEmpty()) b.put("options", d.options());
            domains.add(b.build());
        }
        List<Value> candidates = new ArrayList<>();
        for (ExperimentSpec.CandidateSpec c : spec.candidates()) {
            PyDict.Builder b = PyDict.builder()
                    .put("id", c.label())
                    .put("provider", c.model().provider())
                    .put("model", c.model().model());
            if (!c.model().options().isEmpty()) b.put("options", c.model().options());
            b.put("action_space", c.actionSpace());
            if (c.systemPrompt() != null) b.put("system_prompt", c.systemPrompt());
            Harness h = c.harness();
            if (h.claudeCode()) {
                b.put("harness", Harness.CLAUDE_CODE);
                b.put("harness_options", PyDict.of(Harness.MAX_TURN_STEPS, h.maxTurnSteps()));
            }
            if (h.loop()) {
                b.put("harness", Harness.LOOP);
                PyDict.Builder o = PyDict.builder().put(Harness.MAX_TURN_STEPS, h.maxTurnSteps());
                if (h.replGuidance() != null) {
                    b.put(Harness.REPL_GUIDANCE, h.replGuidance().id());
                    o.put(Harness.OUTPUT_LIMIT, h.outputLimit())
                            .put(Harness.EVAL_TIMEOUT_SECONDS, h.evalTimeoutSeconds())
                            .put(Harness.HEAP_MB, h.heapMb());
                    if (h.sandbox() == SandboxConfig.Isolation.PROCESS)
                        o.put(Harness.SANDBOX, h.sandbox().option());
                }
                b.put("harness_options", o.build());
            }
            if (spec.cache().candidates().contains(c.label())) b.put("cache", PyBool.TRUE);
            candidates.add(b.build());
        }
        PyDict.Builder limits = PyDict.builder();
        new TreeMap<>(spec.providerLimits())
                .forEach((k, v) ->
                        limits.put(k, PyDict.of("concurrency", v.concurrency(), "rate_per_second", v.ratePerSecond())));
        PyDict.Builder models = PyDict.builder();
        new TreeMap<>(spec.models())
                .forEach((role, ref) ->
                        models.put(role, model(ref, spec.cache().roles().contains(role))));
        PyDict.Builder out = PyDict.builder()
                .put("name", spec.name())
                .put("domains", PyList.of(domains))
                .put("candidates", PyList.of(candidates))
                .put("repetitions", spec.repetitions())
                .put("parallelism", spec.parallelism())
                .put("providers", limits.build())
                .put("models", models.build())
                .put("max_infra_retries", spec.maxInfraRetries())
                .put("cell_timeout_seconds", spec.cellTimeout().toMillis() / 1000.0)
                .put("progress", PyBool.of(spec.progress()));
        // The experiment's prices and budget (its own and each cell's), in the file's keys as the stored spec keeps
        // them: the workers price and stop by them (FleetBudgets). Only a spec that has them says so.
        PyDict stored = spec.toValue();
        for (String key : List.of("prices", "budget")) if (stored.get(key) != null) out.put(key, stored.get(key));
        return out.build();
    }

    private static PyDict model(ModelRef ref, boolean cached) {
        PyDict.Builder b = PyDict.builder().put("provider", ref.provider()).put("model", ref.model());
        if (!ref.options().isEmpty()) b.put("options", ref.options());
        if (cached) b.put("cache", PyBool.TRUE);
        return b.build();
    }

    /** The spec back from {@link #of}. */
    static ExperimentSpec read(PyDict source) {
        return ExperimentSpec.fromValue(source, source.get("name").asStr(), null);
    }
}
