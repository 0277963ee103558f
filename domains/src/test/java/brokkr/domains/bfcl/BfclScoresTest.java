package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.AgentDef;
import brokkr.eval.Attempt;
import brokkr.eval.EnvironmentDef;
import brokkr.eval.Evaluation;
import brokkr.eval.ModelRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BfclScoresTest {
    /** The scripted gold candidate on the evaluation path over every task: all pass but the six unsatisfiable ones. */
    @Test
    void goldPassesEverySatisfiableTask() {
        BfclBenchmark b = new BfclBenchmark(Shared.data());
        AgentDef gold = AgentDef.of(new ModelRef("scripted", "gold"), "reference", null);
        List<BfclScores.TaskResult> results = new ArrayList<>();
        for (String id : b.tasks("all")) {
            EnvironmentDef env = b.environment(id, Map.of());
            Attempt a = Evaluation.evaluate(
                    new Evaluation.Cell(b, env, gold, null, 0),
                    ref -> {
                        throw new AssertionError("gold is the benchmark's own model");
                    },
                    new Evaluation.Recorder());
            BfclScores.TaskResult r = BfclScores.TaskResult.of(env, a);
            assertFalse(r.infrastructureFailure(), id + " " + a.error());
            assertEquals(!r.unsatisfiable(), r.passed(), id + " " + a.evidence().details());
            results.add(r);
        }
        BfclScores.Summary s = BfclScores.summarize(results);
        assertEquals(3641, s.tasks());
        assertEquals(3635, s.passed());
        assertEquals(98, s.categories().get(BfclCategory.SIMPLE_JAVA).passed());
        assertEquals(1.0, s.categories().get(BfclCategory.SIMPLE_JAVASCRIPT).accuracy());
        assertEquals(256, s.categories().get(BfclCategory.LIVE_SIMPLE).passed());
        assertEquals(1051, s.categories().get(BfclCategory.LIVE_MULTIPLE).passed());
        assertEquals(1.0, s.categories().get(BfclCategory.SIMPLE_PYTHON).accuracy());
        assertEquals((256.0 + 1051 + 16 + 24) / (258 + 1053 + 16 + 24), s.liveOverall(), 1e-12);
        assertEquals(1.0, s.irrelevanceDetection());
        // Upstream's overall on these numbers: non-live (simple = the mean of simple_python, simple_java 98/100 and
        // simple_javascript), live and irrelevance only (no multi-turn or agentic category here), so not upstream's
        // overall but the same weights over those three, said so.
        BfclOverall o = s.overall();
        assertNull(o.upstream());
        assertEquals(List.of("multi-turn", "agentic"), o.notRun());
        double nonLive = ((1.0 + 0.98 + 1.0) / 3 + 1.0 + 1.0 + 1.0) / 4;
        assertEquals(
                (10 * nonLive + 10 * s.liveOverall() + 10 * s.irrelevanceDetection()) / 30, o.ofSegmentsRun(), 1e-12);
        assertEquals("non-live, live, irrelevance: 30% of upstream's weight", o.covers());
        var figures = BfclScores.report(s).figures();
        assertEquals(
                "overall of the segments run (non-live, live, irrelevance: 30% of upstream's weight)",
                figures.getLast().name());
        assertNull(figures.get(figures.size() - 2).value(), BfclScores.UPSTREAM_OVERALL + " is missing");
        System.out.print(BfclScores.format(s));
    }

    @Test
    void sampleIsAStableSeededSlicePerCategory() {
        BfclData data = Shared.data();
        List<BfclCategory> cats = List.of(BfclCategory.values());
        List<BfclTask> a = data.sample(cats, 3, 7), b = data.sample(cats, 3, 7), c = data.sample(cats, 3, 8);
        assertEquals(39, a.size());
        assertEquals(a, b);
        assertNotEquals(a, c);
        for (BfclCategory cat : cats)
            assertEquals(3, a.stream().filter(t -> t.category() == cat).count());
        // a larger slice contains the smaller one (membership depends only on the seed and the id)
        assertTrue(data.sample(cats, 5, 7).containsAll(a));
        assertEquals(
                16, data.sample(List.of(BfclCategory.LIVE_RELEVANCE), 100, 7).size());
    }

    /** The slices bfcl run picks are splits an experiment can name. */
    @Test
    void samplesAreSplits() {
        BfclData data = Shared.data();
        BfclBenchmark b = new BfclBenchmark(data);
        List<BfclCategory> all = List.of(BfclCategory.values()),
                two = List.of(BfclCategory.LIVE_SIMPLE, BfclCategory.SIMPLE_PYTHON);
        assertEquals("all:sample=3:seed=7", BfclBenchmark.split(all, 3, 7));
        assertEquals("live_simple,simple_python", BfclBenchmark.split(two, null, 7));
        assertEquals(ids(data.sample(all, 3, 7)), b.tasks("all:sample=3:seed=7"));
        assertEquals(ids(data.sample(two, 2, 0)), b.tasks("live_simple,simple_python:sample=2"));
        assertEquals(ids(data.sample(two, null, 0)), b.tasks(BfclBenchmark.split(two, null, 7)));
        assertEquals(ids(data.sample(all, 2, 7)), b.tasks("smoke"));
        assertEquals(ids(data.tasks(BfclCategory.IRRELEVANCE)), b.tasks("irrelevance"));
        for (String bad : List.of(
                "java",
                "all:sample=0",
                "all:seed=3",
                "all:sample=x",
                "smoke:sample=2",
                "all:sample=2:sample=3",
                "all:top=2")) {
            assertThrows(IllegalArgumentException.class, () -> b.tasks(bad), bad);
        }
    }

    @Test
    void wrongAnswerFailsAndTextIsNoCall() {
        BfclTask t = Shared.data().tasks(BfclCategory.SIMPLE_PYTHON).getFirst();
        BfclGrader.Verdict v = BfclHarness.grade(t, BfclHarness.Answer.failed("text"), true);
        assertFalse(v.valid());
        assertEquals("ast_decoder:decoder_failed", v.errorType());
        BfclTask irr = Shared.data().tasks(BfclCategory.IRRELEVANCE).getFirst();
        assertTrue(
                BfclHarness.grade(irr, BfclHarness.Answer.failed("text"), true).valid());
    }

    private static List<String> ids(List<BfclTask> tasks) {
        return tasks.stream().map(BfclTask::id).toList();
    }
}
