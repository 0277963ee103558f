package brokkr.domains.tau2.orchestrator;

import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domain;
import java.util.List;
import java.util.Map;

/**
 * {@link FakeEnvironment} as a tau2 benchmark ({@code tau2-fake}), so protocol tests run their episodes the
 * production way (world setup, protocol, evaluator through {@code Evaluation.evaluate}). Its tasks are the ones
 * a test gives; agent prompt {@code AGENT PROMPT}, user prompt {@code USER PROMPT}.
 */
final class FakeBenchmark extends Tau2Benchmark {
    private final Map<String, TaskSpec> tasks;

    FakeBenchmark(TaskSpec... tasks) {
        super("fake");
        Map<String, TaskSpec> m = new java.util.LinkedHashMap<>();
        for (TaskSpec t : tasks) m.put(t.id(), t);
        this.tasks = Map.copyOf(m);
    }

    @Override
    protected Map<String, String> digests() {
        return Map.of();
    }

    @Override
    protected Loaded load(brokkr.domains.tau2.environment.Tau2Data data) {
        Tau2Domain d = new Tau2Domain(
                "fake",
                new FakeEnvironment(),
                tasks,
                split -> List.copyOf(tasks.keySet()),
                "AGENT PROMPT",
                task -> "USER PROMPT");
        return new Loaded(d, null, null);
    }
}
