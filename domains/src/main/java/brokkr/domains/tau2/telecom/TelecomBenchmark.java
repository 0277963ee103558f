package brokkr.domains.tau2.telecom;

import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Exploration;
import java.util.Map;

/** tau2-bench's telecom domain as benchmark {@code tau2-telecom}: dual control (the user has tools and a DB of their own). */
public final class TelecomBenchmark extends Tau2Benchmark {
    public TelecomBenchmark() {
        super(TelecomDomain.DOMAIN);
    }

    @Override
    protected Map<String, String> digests() {
        return TelecomDomain.DIGESTS;
    }

    @Override
    protected Loaded load(Tau2Data data) {
        TelecomDomain d = new TelecomDomain(data);
        Tau2Domain episodes = new Tau2Domain(
                TelecomDomain.DOMAIN,
                d.episodeEnvironment(),
                d.taskSpecs(),
                d::split,
                d.agentSystemPrompt(),
                task -> d.userSystemPrompt(task.raw()));
        return new Loaded(
                episodes,
                d.factory(),
                new Tau2Exploration.Catalogue(
                        "tau2-bench telecom technical support (dual control)",
                        episodes,
                        d.availableSplits(),
                        d.policy(),
                        TelecomDomain.DIGESTS,
                        d.pristine()));
    }
}
