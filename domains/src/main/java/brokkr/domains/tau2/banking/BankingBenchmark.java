package brokkr.domains.tau2.banking;

import brokkr.domains.tau2.environment.Tau2Data;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domain;
import brokkr.domains.tau2.runner.Tau2Exploration;
import brokkr.value.PyDict;
import java.util.Map;

/**
 * tau2-bench's banking_knowledge domain as benchmark {@code tau2-banking_knowledge}: dual control over one
 * shared DB, discoverable tools and BM25 knowledge-base search ({@code retrieval_variant="bm25"}).
 */
public final class BankingBenchmark extends Tau2Benchmark {
    public BankingBenchmark() {
        super(BankingDomain.DOMAIN);
    }

    @Override
    protected Map<String, String> digests() {
        return BankingDomain.DIGESTS;
    }

    @Override
    protected Loaded load(Tau2Data data) {
        BankingDomain d = new BankingDomain(data);
        Tau2Domain episodes = new Tau2Domain(
                BankingDomain.DOMAIN,
                d.episodeEnvironment(),
                d.taskSpecs(),
                d::split,
                d.agentSystemPrompt(),
                task -> d.userSystemPrompt(task.raw()));
        PyDict pristine = d.db();
        return new Loaded(
                episodes,
                d.factory(),
                new Tau2Exploration.Catalogue(
                        "tau2-bench banking_knowledge (dual control, discoverable tools, BM25 knowledge base)",
                        episodes,
                        java.util.List.of("base"),
                        d.policy(),
                        BankingDomain.DIGESTS,
                        new brokkr.domains.tau2.environment.Tau2Environment.Worlds(
                                pristine, null, BankingTools.session(java.util.List.of()))));
    }
}
