package brokkr.repl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ToolSpec;
import brokkr.value.PyDict;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The helpers a REPL's guidance tells the model to use exist in every API shape it is given with. */
class JavaApiTest {
    private static final List<ToolSpec> TOOLS = List.of(new ToolSpec(
            "get_item",
            "Looks an item up.",
            PyDict.of(
                    "type",
                    "object",
                    "properties",
                    PyDict.of("id", PyDict.of("type", "string", "description", "The id.")))));

    @Test
    void everyHelperAGuidanceNamesIsDeclared() {
        Pattern named = Pattern.compile("%s(\\w+)\\(\\.\\.\\.\\)");
        int helpers = 0;
        for (ReplGuidance g : ReplGuidance.values()) {
            Matcher m = named.matcher(g.text("%s"));
            while (m.find()) {
                String helper = m.group(1);
                helpers++;
                assertTrue(
                        JavaApi.recorders(TOOLS).source().matches("(?s).*\\b" + helper + "\\(\\w+ \\w+\\) \\{.*"),
                        g.id() + " names " + helper + "(...), which recorder APIs (BFCL) must declare");
                assertTrue(
                        JavaApi.namespace("tau2", "Tau2Tools", TOOLS).source().contains(" " + helper + "("),
                        g.id() + " names " + helper + "(...), which namespace APIs (tau2) must declare");
            }
        }
        assertTrue(helpers > 0, "the shape guidance names shape(...)");
        assertFalse(
                JavaApi.recorders(TOOLS).source().contains("String call("),
                "recorders answer with stubs: no call(name, map)");
    }
}
