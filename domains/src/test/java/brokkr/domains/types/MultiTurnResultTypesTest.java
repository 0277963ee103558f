package brokkr.domains.types;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.domains.bfcl.multiturn.Backends;
import brokkr.sandbox.TypeCheck;
import brokkr.tool.ResultTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The BFCL multi-turn backends' result types (drafted from the gold and fuzz executions, uncurated: fuzzed
 * arguments echo into results, so several fields are unions): every function of the eight classes has one and every
 * recorded result that is not an exception fits it.
 */
class MultiTurnResultTypesTest {
    @Test
    void everyRecordedResultFitsItsFunctionsType() throws Exception {
        ResultTypes types = ResultTypes.resource(Backends.class, "/brokkr/domains/bfcl/multiturn/result-types.json");
        Map<String, List<Object>> results =
                ResultCorpus.bfclResults(Path.of("../../shared/conformance/bfcl/multi_turn"));
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (var e : results.entrySet()) {
            String[] cf = e.getKey().split("/", 2);
            var type = types.type(cf[0], cf[1]);
            assertNotNull(type, "no result type for " + e.getKey());
            for (Object v : e.getValue()) {
                checked++;
                String why = TypeCheck.firstViolation(types.defs(), type, v);
                if (why != null && failures.size() < 5) failures.add(e.getKey() + ": " + why);
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(checked > 50_000, checked + " results checked");
        TreeSet<String> functions = new TreeSet<>();
        for (String cls : Backends.NAMES)
            for (String f : Backends.get(cls).methods().keySet()) functions.add(cls + "/" + f);
        assertEquals(functions, new TreeSet<>(types.toolNames()), "every function of the eight classes is typed");
        assertEquals(
                "$.current_working_directory: expected string, got integer 3",
                types.check("GorillaFileSystem", "cd", "{\"current_working_directory\": 3}"));
    }
}
