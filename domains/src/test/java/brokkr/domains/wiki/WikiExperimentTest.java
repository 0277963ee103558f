package brokkr.domains.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.Check;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Inspect;
import brokkr.experiment.Registry;
import brokkr.value.PyDict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example experiment: reference, dump and empty on the public set and on variant 17, through the one registry. */
class WikiExperimentTest {
    @TempDir
    Path tmp;

    static Path example() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("examples/wiki-scripted.yaml");
            if (Files.isRegularFile(f)) return f;
        }
        throw new IllegalStateException("examples/wiki-scripted.yaml not found above the working directory");
    }

    @Test
    void referenceDumpAndEmptyScoreOneLowAndZeroWithTheChecksThatSayWhy() {
        Registry registry = Registry.load();
        assertTrue(registry.benchmarks().get("wiki") instanceof WikiBenchmark);
        var r = Experiments.run(ExperimentSpec.read(example()), tmp.resolve("wiki"), registry);
        assertEquals(6, r.completed());
        Map<String, Set<String>> dumpFails = new HashMap<>();
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("wiki"))) {
            Map<String, String> labels = new HashMap<>();
            store.cells().forEach(cell -> labels.put(cell.key().agentId(), cell.candidate()));
            Set<String> seen = new TreeSet<>();
            for (Attempt a : store.attempts(true)) {
                String who = labels.get(a.agentId()) + " " + a.taskId();
                seen.add(who);
                Set<String> failed = new TreeSet<>();
                for (Check c : a.checks()) if (!c.passed()) failed.add(c.name());
                assertEquals("setup_verified", a.checks().getFirst().name());
                // The recorded final workspace is the seeded one with the transcript's calls replayed.
                assertTrue(Inspect.verifyWorld(store, registry, a.id()).matches(), who);
                switch (labels.get(a.agentId())) {
                    case "reference" -> {
                        assertEquals(1.0, a.reward(), who);
                        assertEquals(Set.of(), failed, who);
                    }
                    case "empty" -> {
                        assertEquals(0.0, a.reward(), who);
                        assertEquals(
                                Set.of("entity_pages", "facts_stated", "index_page", "relations_linked"), failed, who);
                    }
                    default -> {
                        assertTrue(a.reward() > 0 && a.reward() < 0.1, who + " " + a.reward());
                        assertTrue(
                                failed.containsAll(Set.of(
                                        "original_prose",
                                        "current_values",
                                        "entity_pages",
                                        "relations_linked",
                                        "no_distractors")),
                                who + " " + failed);
                        dumpFails.put(a.taskId(), failed);
                    }
                }
            }
            assertEquals(
                    Set.of(
                            "dump catalog",
                            "dump catalog@17",
                            "empty catalog",
                            "empty catalog@17",
                            "reference catalog",
                            "reference catalog@17"),
                    seen);
        }
        // The same damage on two worlds loses the same checks.
        assertEquals(dumpFails.get("catalog"), dumpFails.get("catalog@17"));
    }

    @Test
    void theVariantIsPartOfTheEnvironment() {
        WikiBenchmark b = new WikiBenchmark();
        var pub = b.environment("catalog", Map.of());
        var v17 = b.environment("catalog", Map.of(), PyDict.of("variant", 17));
        assertEquals("catalog@17", v17.taskId());
        assertEquals(
                v17.id(), b.environment("catalog@17", Map.of(), PyDict.empty()).id());
        assertTrue(!pub.id().equals(v17.id()) && !pub.dataDigests().equals(v17.dataDigests()));
        assertThrows(IllegalArgumentException.class, () -> b.environment("catalog", Map.of(), PyDict.of("seed", 1)));
        assertThrows(
                IllegalArgumentException.class, () -> b.environment("catalog", Map.of(), PyDict.of("variant", "x")));
        assertThrows(
                IllegalArgumentException.class, () -> b.environment("catalog@3", Map.of(), PyDict.of("variant", 4)));
        assertThrows(IllegalArgumentException.class, () -> b.tasks("private"));
    }
}
