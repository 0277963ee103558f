package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gold answers for simple_java / simple_javascript written as the source text a model sends
 * ({@link LanguageSource}): every task the java-js corpus README does not list as unsatisfiable gets
 * one the checker accepts under both naming conventions, and the unsatisfiable ones are exactly
 * upstream's data faults (simple_java_36, simple_java_65).
 */
class LanguageGoldTest {
    @Test
    void everySatisfiableJavaJsTaskHasAnAcceptedSourceTextAnswer() {
        List<String> unsatisfiable = new ArrayList<>();
        int accepted = 0;
        List<BfclTask> tasks = new ArrayList<>(Shared.data().tasks(BfclCategory.SIMPLE_JAVA));
        tasks.addAll(Shared.data().tasks(BfclCategory.SIMPLE_JAVASCRIPT));
        for (BfclTask t : tasks) {
            if (GoldAnswers.unsatisfiable(t)) {
                unsatisfiable.add(t.id());
                continue;
            }
            assertTrue(GoldAnswers.accepted(t, true).isPresent(), t.id());
            assertTrue(GoldAnswers.accepted(t, false).isPresent(), t.id());
            accepted++;
        }
        assertEquals(List.of("simple_java_36", "simple_java_65"), unsatisfiable);
        assertEquals(148, accepted);
    }

    /** Every value is sent as a string (the compiled docs declare every parameter "string"). */
    @Test
    void goldValuesAreSourceText() {
        BfclTask t = Shared.data().byId().get("simple_java_1");
        PyObj gold = GoldAnswers.accepted(t, true).orElseThrow();
        PyObj.Dict args = (PyObj.Dict) ((PyObj.Dict) ((PyObj.Seq) gold).items().getFirst()).valueAt(0);
        for (int i = 0; i < args.size(); i++) assertTrue(PyObj.isStr(args.valueAt(i)), args.keyAt(i));
        assertEquals(
                "new HashMap<String, Object>() {{ put(\"limit\", 50); put(\"schemaFilter\", \"public\"); }}",
                PyObj.strValue(args.get("params")));
    }
}
