package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gold answers written as prompting-mode text round-trip through upstream's decoders to calls the AST checker
 * accepts: every satisfiable simple_java / simple_javascript task decoded by the Java / JavaScript parsers (148).
 */
class PromptingGoldTest {

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
