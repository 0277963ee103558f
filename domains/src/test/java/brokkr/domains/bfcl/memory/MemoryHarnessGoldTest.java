package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Registry;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bfcl-memory's gold on the experiment path, every memory_kv and memory_rec_sum task (each task plays its
 * scenario's prerequisite chain itself), through the reference harness and the loop harness with JSON tools; and
 * through the sandboxed Java REPL ({@code harness: loop, action_space: repl}: each step's calls one snippet of
 * recorder method calls, a sandbox JVM per entry), each scenario's prerequisites played once and every question
 * from a fork of the world they left. 1.0 on every derivable question, 0.0 on the 15 listed in
 * {@link MemoryGoldTest#UNDERIVABLE}. Where bubblewrap does not work, {@code -Dbrokkr.memory.sandbox=process}.
 */
@Tag("proof") // ./test runs the long proofs beside the other tests (the tag selects them)
class MemoryHarnessGoldTest {
    @TempDir
    Path tmp;

    @Test
    void goldThroughTheReferenceAndTheLoopPassesEveryDerivableTask() {
        List<String> all =
                Registry.load().benchmarks().get("bfcl-memory").tasks(String.join(",", MemoryCategory.availableIds()));
        assertEquals(155 * MemoryGoldTest.CATEGORIES.size(), all.size());
        var reference = new ExperimentSpec.CandidateSpec("gold", new ModelRef("scripted", "gold"), "reference", null);
        var loop = new ExperimentSpec.CandidateSpec(
                "gold-loop",
                new ModelRef("scripted", "gold"),
                "tools",
                null,
                Harness.of("loop", "tools", null, PyDict.empty()));
        for (var c : List.of(reference, loop)) {
            Map<String, Attempt> got = MemoryGoldTest.run(tmp, c.label(), all, c);
            int passed = 0;
            for (String id : all) {
                Attempt a = got.get(id);
                boolean underivable =
                        MemoryGoldTest.UNDERIVABLE.contains(id.replaceFirst("memory_(kv|rec_sum|vector)", "memory"));
                assertEquals(
                        underivable ? 0.0 : 1.0,
                        a.reward(),
                        c.label() + " " + id + " " + a.evidence().details());
                if (a.reward() == 1.0) passed++;
            }
            assertEquals(MemoryGoldTest.DERIVABLE, passed, c.label());
        }
    }

    @Test
    void goldThroughTheReplPassesEveryDerivableQuestion() {
        long t0 = System.nanoTime();
        // -Dbrokkr.memory.sandbox=process where bubblewrap does not work (the snippets then run under JVM limits only)
        String sandbox = System.getProperty("brokkr.memory.sandbox");
        PyDict options = sandbox == null ? PyDict.empty() : PyDict.of("sandbox", new brokkr.value.PyStr(sandbox));
        int passed = MemoryGoldTest.passedForked(Harness.of("loop", "repl", "shape", options), "repl");
        System.out.printf(
                "bfcl-memory gold through the REPL: %d questions (the 5 scenarios' prerequisite chains of each backend) in %d ms%n",
                155 * MemoryGoldTest.CATEGORIES.size(), (System.nanoTime() - t0) / 1_000_000);
        assertEquals(MemoryGoldTest.DERIVABLE, passed);
    }
}
