package brokkr.domains.tau2.domains;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.domains.tau2.SharedDirs;
import brokkr.domains.tau2.conformance.Tau2Conformance;
import brokkr.domains.tau2.runner.Tau2Benchmark;
import brokkr.domains.tau2.runner.Tau2Domains;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every registered tau2 domain replays every recorded upstream call corpus (shared/conformance/tau2/DOMAIN/*.jsonl:
 * the gold actions and the fuzzed sequences, banking_knowledge's KB searches too) with 0 mismatches, through the
 * registered benchmark's environment factory; the corpora's sizes are pinned so a truncated corpus cannot pass.
 */
class Tau2DomainsConformanceTest {
    /** A corpus file with its sequences and calls, replayed on {@code threads} workers. */
    record Corpus(String file, int sequences, int calls, int threads) {}

    static final Map<String, List<Corpus>> CORPORA = Map.of(
            "retail", List.of(new Corpus("gold.jsonl", 114, 550, 1), new Corpus("fuzz-seed11.jsonl", 800, 5644, 1)),
            "airline", List.of(new Corpus("gold.jsonl", 50, 142, 1), new Corpus("fuzz-seed11.jsonl", 800, 5487, 1)),
            "telecom",
                    List.of(
                            new Corpus("gold.jsonl", 114, 516, 1),
                            new Corpus("fuzz-seed11.jsonl", 1000, 6529, 1),
                            new Corpus("fuzz-seed11.jsonl", 1000, 6529, 4)),
            "banking_knowledge",
                    List.of(
                            new Corpus("gold.jsonl", 97, 955, 1),
                            new Corpus("fuzz-seed11.jsonl", 1000, 7085, 2),
                            new Corpus("kb-search-seed11.jsonl", 340, 1994, 2)));

    static Stream<String> domains() {
        return Tau2Domains.names().stream();
    }

    @Test
    void everyRegisteredDomainAndEveryCorpusFileIsReplayed() throws IOException {
        assertEquals(new TreeSet<>(CORPORA.keySet()), new TreeSet<>(Tau2Domains.names()));
        for (String d : Tau2Domains.names()) {
            TreeSet<String> files = new TreeSet<>();
            try (Stream<Path> s =
                    Files.list(SharedDirs.conformance(d, "gold.jsonl").getParent())) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".jsonl"))
                        .forEach(files::add);
            }
            assertEquals(
                    files,
                    new TreeSet<>(CORPORA.get(d).stream().map(Corpus::file).toList()),
                    d);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("domains")
    void replaysEveryCorpusWithoutMismatch(String domain) {
        Tau2Conformance.EnvironmentFactory factory = Tau2Domains.factory(domain);
        for (Corpus c : CORPORA.get(domain)) {
            Tau2Conformance.Report r =
                    Tau2Conformance.run(factory, SharedDirs.conformance(domain, c.file()), System.out, c.threads());
            String what = domain + " " + c;
            assertEquals(c.sequences(), r.sequences(), what);
            assertEquals(c.calls(), r.calls(), what);
            assertEquals(0, r.mismatches(), what + ": " + r);
        }
    }

    /** A second replay in the same JVM (warm: the classes compiled, the data loaded) still agrees. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("domains")
    void aWarmReplayAgreesToo(String domain) {
        Tau2Benchmark b = Tau2Domains.benchmark(domain);
        Tau2Conformance.Report warm = Tau2Conformance.run(
                b.loaded().environments(), SharedDirs.conformance(domain, "fuzz-seed11.jsonl"), null);
        System.out.println(domain + " fuzz-seed11 warm replay: " + warm);
        assertEquals(0, warm.mismatches());
    }
}
