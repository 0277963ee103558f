package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BfclRunTest {
    @Test
    void goldPassesEverySatisfiableTask() {
        BfclData data = Shared.data();
        List<BfclTask> all = data.all();
        Set<String> unsat = GoldAnswers.unsatisfiableIds(all);
        List<BfclRun.TaskResult> results = BfclRun.run(all, new BfclAgent.Gold(), unsat, 2);
        for (BfclRun.TaskResult r : results) {
            assertEquals(!r.unsatisfiable(), r.passed(), r.task().id() + " " + r.verdict());
        }
        BfclRun.Summary s = BfclRun.summarize(results);
        assertEquals(3491, s.tasks());
        assertEquals(3487, s.passed());
        assertEquals(256, s.categories().get(BfclCategory.LIVE_SIMPLE).passed());
        assertEquals(1051, s.categories().get(BfclCategory.LIVE_MULTIPLE).passed());
        assertEquals(1.0, s.categories().get(BfclCategory.SIMPLE_PYTHON).accuracy());
        assertEquals((256.0 + 1051 + 16 + 24) / (258 + 1053 + 16 + 24), s.liveOverall(), 1e-12);
        assertEquals(1.0, s.irrelevanceDetection());
        System.out.print(BfclRun.format(s));
    }

    @Test
    void sampleIsAStableSeededSlicePerCategory() {
        BfclData data = Shared.data();
        List<BfclCategory> cats = List.of(BfclCategory.values());
        List<BfclTask> a = BfclRun.sample(data, cats, 3, 7), b = BfclRun.sample(data, cats, 3, 7), c = BfclRun.sample(data, cats, 3, 8);
        assertEquals(33, a.size());
        assertEquals(a, b);
        assertNotEquals(a, c);
        for (BfclCategory cat : cats) assertEquals(3, a.stream().filter(t -> t.category() == cat).count());
        // a larger slice contains the smaller one (membership depends only on the seed and the id)
        assertTrue(BfclRun.sample(data, cats, 5, 7).containsAll(a));
        assertEquals(16, BfclRun.sample(data, List.of(BfclCategory.LIVE_RELEVANCE), 100, 7).size());
    }

    @Test
    void wrongAnswerFailsAndTextIsNoCall() {
        BfclTask t = Shared.data().tasks(BfclCategory.SIMPLE_PYTHON).getFirst();
        Grader.Verdict v = BfclHarness.grade(t, BfclHarness.Answer.failed("text"), true);
        assertFalse(v.valid());
        assertEquals("ast_decoder:decoder_failed", v.errorType());
        BfclTask irr = Shared.data().tasks(BfclCategory.IRRELEVANCE).getFirst();
        assertTrue(BfclHarness.grade(irr, BfclHarness.Answer.failed("text"), true).valid());
    }
}
