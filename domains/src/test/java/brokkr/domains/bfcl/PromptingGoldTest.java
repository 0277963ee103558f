package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.ModelRef;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.ExperimentSpec;
import brokkr.experiment.Experiments;
import brokkr.experiment.Registry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gold answers written as prompting-mode text round-trip through upstream's decoders to calls the AST checker
 * accepts: every satisfiable simple_java / simple_javascript task decoded by the Java / JavaScript parsers (148).
 */
class PromptingGoldTest {
    @TempDir
    Path tmp;

    /**
     * The prompting action space on the experiment path: upstream's default prompt, the gold candidate's text decoded
     * by the Java / JavaScript parsers in the evaluator and graded without underscore_to_dot: 148 of 150 pass, the
     * two unsatisfiable tasks fail.
     */
    @Test
    void goldPromptingCandidateThroughTheBenchmark() {
        List<String> tasks = new BfclBenchmark(Shared.data()).tasks("simple_java,simple_javascript");
        var spec = new ExperimentSpec(
                "bfcl-prompting",
                List.of(new ExperimentSpec.DomainSpec("bfcl", null, tasks)),
                List.of(new ExperimentSpec.CandidateSpec(
                        "gold-prompting", new ModelRef("scripted", "gold"), "prompting", null)),
                1,
                4,
                Map.of(),
                Map.of(),
                0,
                Duration.ofSeconds(60),
                false);
        var r = Experiments.run(spec, tmp.resolve("p"), Registry.load());
        assertEquals(150, r.completed(), r.summary());
        List<String> failed = new ArrayList<>();
        try (ExperimentQuery store = ExperimentQuery.open(tmp.resolve("p"))) {
            for (Attempt a : store.attempts(true)) {
                if (a.reward() != 1.0) failed.add(a.taskId());
                String text = a.evidence()
                        .output()
                        .get("prompting")
                        .asDict()
                        .get("text")
                        .asStr();
                assertTrue(text.startsWith("[") && !text.contains("_createPresentation"), text);
            }
        }
        failed.sort(null);
        assertEquals(List.of("simple_java_36", "simple_java_65"), failed);
    }

    @Test
    void everySatisfiableJavaAndJavaScriptTaskRoundTrips() {
        BfclData data = Shared.data();
        List<String> failed = new ArrayList<>();
        int passed = 0, unsatisfiable = 0;
        for (BfclCategory c : List.of(BfclCategory.SIMPLE_JAVA, BfclCategory.SIMPLE_JAVASCRIPT)) {
            for (BfclTask t : data.tasks(c)) {
                if (GoldAnswers.unsatisfiable(t)) {
                    unsatisfiable++;
                    continue;
                }
                var text = PromptingAnswers.accepted(t, PromptingDecoder.ReturnFormat.of(c.language()), false);
                if (text.isPresent()) passed++;
                else failed.add(t.id());
            }
        }
        assertEquals(List.of(), failed);
        assertEquals(148, passed);
        assertEquals(2, unsatisfiable);
    }

    @Test
    void aJavaAnswerIsTheDecodedCallOfItsText() {
        BfclTask t = Shared.data().byId().get("simple_java_0");
        String text = PromptingAnswers.accepted(t, PromptingDecoder.ReturnFormat.JAVA, false)
                .orElseThrow();
        assertEquals("[GeometryPresentation.createPresentation(controller=mapController, parent=mapArea)]", text);
        assertTrue(BfclHarness.grade(t, PromptingDecoder.answer(text, PromptingDecoder.ReturnFormat.JAVA, false), false)
                .valid());
        // The FC spelling with '_' is not the function upstream's checker expects from a prompting model.
        assertTrue(!BfclHarness.grade(
                        t,
                        PromptingDecoder.answer(
                                text.replace("GeometryPresentation.", "GeometryPresentation_"),
                                PromptingDecoder.ReturnFormat.JAVA,
                                false),
                        false)
                .valid());
    }
}
