package brokkr.domains.tau2.airline;

import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.environment.Tau2Environment.Worlds;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Exploration;
import java.util.List;
import java.util.Map;

/** tau2-bench's airline domain as benchmark {@code tau2-airline}. */
public final class AirlineBenchmark extends Tau2Benchmark {
    public AirlineBenchmark() {
        super(AirlineDomain.DOMAIN);
    }

    @Override
    protected Map<String, String> digests() {
        return AirlineDomain.DIGESTS;
    }

    @Override
    protected Map<String, String> dataNotes() {
        return AirlineDomain.RECONSTRUCTED;
    }

    /** Users have no tools and there is no {@code sync_tools}, as in retail. */
    @Override
    protected Loaded load(Tau2Data data) {
        AirlineDomain d = new AirlineDomain(data);
        Tau2Domain episodes = new Tau2Domain(
                AirlineDomain.DOMAIN,
                d.episodeEnvironment(),
                d.taskSpecs(),
                d::split,
                d.agentSystemPrompt(),
                task -> d.userSystemPrompt(task.raw()));
        return new Loaded(
                episodes,
                d.factory(),
                new Tau2Exploration.Catalogue(
                        "tau2-bench airline customer service",
                        episodes,
                        List.copyOf(d.splits().keys()),
                        d.policy(),
                        AirlineDomain.DIGESTS,
                        new Worlds(d.db(), null)));
    }
}
