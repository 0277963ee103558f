package brokkr.domains.bfcl.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.ToolCompiler;
import brokkr.eval.Attempt;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import brokkr.repl.Harness;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * bfcl-memory's scripted gold really uses the memory backend: it stores the facts during the prerequisite
 * conversations and answers each question from what it retrieves, through upstream's function-calling loop (the
 * reference harness) and Brokkr's agent loop with JSON tools, on the experiment path, every memory_kv and
 * memory_rec_sum task: 1.0 on every task whose answer some sentence of the conversations states, 0.0 on the 15 it
 * cannot derive (listed). The gold is not told the answer: a memory that loses its facts fails it.
 */
class MemoryGoldTest {
    static final MemoryData DATA = MemoryData.load();

    /** The questions whose answer no sentence of the prerequisite conversations states verbatim (by the checker's normalisation). */
    /** Every memory category offered (memory_kv, memory_vector, memory_rec_sum: each backend class is present). */
    static final List<MemoryCategory> CATEGORIES = MemoryCategory.available();

    /** The questions gold answers from memory over every category: the same 15 are underivable in each. */
    static final int DERIVABLE = CATEGORIES.size() * (155 - 15);

    static final List<String> UNDERIVABLE = List.of(
            "memory_18-customer-18", // 'digital art' (the message says "digital artwork")
            "memory_19-customer-19", // '19' (the message says "19-month": standardized "19month")
            "memory_27-customer-27", // 'art contest' ("latte-art contest": "latteart contest")
            "memory_28-customer-28", // 'corner dent' ("corner dents")
            "memory_40-healthcare-10", // '03:00 PM' ("3 PM")
            "memory_62-finance-7", // 'long term approach' ("long-term approach": "longterm")
            "memory_64-finance-9", // '05:30 AM' ("5:30 AM")
            "memory_76-finance-21", // 'Adaptability, Discipline, Relationships' (listed in another order)
            "memory_104-student-24", // 'Cross functional' ("cross-functional": "crossfunctional")
            "memory_125-student-45", // '06:30 AM' ("6:30 in the morning")
            "memory_130-notetaker-0", // '08:00 AM' ("8 AM")
            "memory_137-notetaker-7", // '05:00 PM' ("5 PM")
            "memory_149-notetaker-19", // 'Yes' (a yes/no question)
            "memory_152-notetaker-22", // '3' (a count of listed items)
            "memory_153-notetaker-23"); // 'Glue Stick' ("glue sticks")

    @Test
    void theUnderivableQuestionsAreTheListedOnes() {
        TreeSet<String> got = new TreeSet<>();
        for (MemoryCategory c : CATEGORIES)
            for (String s : MemoryData.SCENARIOS) got.addAll(MemoryGold.underivable(DATA, s, c));
        assertEquals(new TreeSet<>(UNDERIVABLE), got);
        assertEquals(155, DATA.questions().size());
    }

    /**
     * Every memory_kv and memory_rec_sum question through upstream's loop (the reference harness) and Brokkr's loop
     * with JSON tools: each scenario's prerequisites played once, every question from a fork of the world they left
     * (as upstream's questions load the scenario's final snapshot).
     */
    @Test
    void goldThroughTheReferenceAndTheLoopPassesEveryDerivableQuestion() {
        for (String harness : List.of("reference", "loop")) {
            Harness h = harness.equals("reference")
                    ? Harness.fromValue(PyDict.empty())
                    : Harness.of("loop", "tools", null, PyDict.empty());
            assertEquals(DERIVABLE, passedForked(h, "tools"), harness);
        }
    }

    /** The questions gold passes with each scenario's prerequisites played once under {@code h}; asserts the rest are the underivable ones. */
    static int passedForked(Harness h, String space) {
        int passed = 0;
        for (MemoryCategory cat : CATEGORIES) {
            String c = cat.id();
            for (String scenario : MemoryData.SCENARIOS) {
                MemoryInference.EntryPlayer p = MemoryBenchmark.player(
                        h,
                        space,
                        new MemoryGold(DATA, cat, scenario),
                        ToolCompiler.Style.OPENAI_COMPLETIONS,
                        null,
                        brokkr.conversation.SpendLimit.NONE);
                MemoryInference.Chain prereqs = MemoryInference.prereqs(DATA, cat, scenario, p);
                assertTrue(!prereqs.stopped(), c + " " + scenario);
                for (MemoryData.Question q : DATA.questions(scenario)) {
                    MemoryInference.Chain done = MemoryInference.question(DATA, prereqs, cat, q, p);
                    boolean valid = done.answer() != null
                            && AgenticChecker.check(done.answer(), q.answers()).valid();
                    assertEquals(
                            !UNDERIVABLE.contains(q.id()),
                            valid,
                            h.label() + " " + c + " " + q.id() + ": " + done.answer());
                    if (valid) passed++;
                }
            }
        }
        return passed;
    }

    /** A backend that forgets (every entry's instance made from an empty memory) fails the gold: it reads memory. */
    @Test
    void withoutTheSnapshotsTheGoldDoesNotKnow() {
        MemoryCategory kv = MemoryCategory.of("memory_kv");
        MemoryData.Question q = DATA.questions("customer").getFirst();
        MemoryInference.EntryPlayer p = MemoryBenchmark.player(
                Harness.fromValue(PyDict.empty()),
                "reference",
                new MemoryGold(DATA, kv, "customer"),
                ToolCompiler.Style.OPENAI_COMPLETIONS,
                null,
                brokkr.conversation.SpendLimit.NONE);
        MemoryInference.Chain prereqs = MemoryInference.prereqs(DATA, kv, "customer", p);
        MemoryInference.Chain answered = MemoryInference.question(DATA, prereqs, kv, q, p);
        assertTrue(AgenticChecker.check(answered.answer(), q.answers()).valid(), answered.answer());
        // the same question over a run whose snapshot files were never written: the archival memory is empty
        MemoryRun empty = MemoryRun.start(kv.backend(), "customer", MemoryInference.MODEL_NAME);
        MemoryInference.Chain forgot =
                MemoryInference.question(DATA, new MemoryInference.Chain(empty, List.of(), null, false), kv, q, p);
        assertNotNull(forgot.answer());
        assertEquals("{'answer': 'I do not know', 'context': 'I do not know'}", forgot.answer());
        assertTrue(!AgenticChecker.check(forgot.answer(), q.answers()).valid());
    }

    static Map<String, Attempt> run(Path tmp, String name, List<String> tasks, ExperimentSpec.CandidateSpec c) {
        var spec = new ExperimentSpec(
                "mem-" + name,
                List.of(new ExperimentSpec.DomainSpec("bfcl-memory", null, tasks)),
                List.of(c),
                1,
                2,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(300),
                false);
        var r = Experiments.run(spec, tmp.resolve(name), Registry.load());
        assertEquals(0, r.infrastructureFailures(), r.summary());
        assertEquals(tasks.size(), r.completed(), r.summary());
        Map<String, Attempt> out = new HashMap<>();
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve(name))) {
            for (Attempt a : store.attempts(true)) out.put(a.taskId(), a);
        }
        return out;
    }

    static List<String> ids(List<Attempt> as) {
        List<String> out = new ArrayList<>();
        for (Attempt a : as) out.add(a.taskId());
        return out;
    }
}
