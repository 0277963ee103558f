package brokkr.domains.tau2.retail;

import brokkr.domains.tau2.environment.EpisodeEnvironment;
import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.environment.Tau2EpisodeEnvironment;
import brokkr.domains.tau2.model.TaskSpec;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Exploration;
import brokkr.value.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** tau2-bench's retail domain as benchmark {@code tau2-retail}. */
public final class RetailBenchmark extends Tau2Benchmark {
    public RetailBenchmark() {
        super(RetailDomain.DOMAIN);
    }

    @Override
    protected Map<String, String> digests() {
        return RetailDomain.DIGESTS;
    }

    /** Users have no tools (upstream {@code tools=None}) and there is no {@code sync_tools}. */
    @Override
    protected Loaded load(Tau2Data data) {
        RetailDomain d = new RetailDomain(data);
        Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        for (Value t : d.tasks()) {
            TaskSpec spec = TaskSpec.parse(t.asDict());
            tasks.put(spec.id(), spec);
        }
        EpisodeEnvironment<Worlds> env = new Tau2EpisodeEnvironment(
                d.toolkit(), null, null, task -> d.environment(task.id()), task -> List.of());
        Tau2Domain episodes = new Tau2Domain(
                RetailDomain.DOMAIN,
                env,
                tasks,
                d::split,
                d.agentSystemPrompt(),
                task -> d.userSystemPrompt(task.raw()));
        return new Loaded(
                episodes,
                d.factory(),
                new Tau2Exploration.Catalogue(
                        "tau2-bench retail customer service",
                        episodes,
                        List.copyOf(d.splits().keys()),
                        d.policy(),
                        RetailDomain.DIGESTS,
                        new Worlds(d.db(), null)));
    }
}
