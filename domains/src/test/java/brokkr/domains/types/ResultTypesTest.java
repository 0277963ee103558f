package brokkr.domains.types;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.domains.tau2.runner.Tau2ResultTypes;
import brokkr.tool.ResultTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every successful result of every shared tau2 corpus (gold and fuzz) fits its tool's curated result type, and
 * every tool the domain offers has one: the types cannot drift from the transcription. A result bent out of shape
 * is caught with its path.
 */
class ResultTypesTest {
    static final Path CONFORMANCE = Path.of("../../shared/conformance/tau2");

    @ParameterizedTest
    @ValueSource(strings = {"retail", "airline", "telecom", "banking_knowledge"})
    void everyRecordedResultFitsItsToolsType(String domain) throws Exception {
        ResultTypes types = Tau2ResultTypes.of(domain);
        Map<String, List<Object>> results = ResultCorpus.results(CONFORMANCE.resolve(domain));
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (var e : results.entrySet()) {
            String[] rt = e.getKey().split("/", 2);
            var type = types.type(rt[0], rt[1]);
            assertNotNull(type, "no result type for " + e.getKey());
            for (Object v : e.getValue()) {
                checked++;
                String why = brokkr.sandbox.TypeCheck.firstViolation(types.defs(), type, v);
                if (why != null && failures.size() < 5) failures.add(e.getKey() + ": " + why);
            }
        }
        assertEquals(List.of(), failures, domain);
        assertTrue(checked > 1000, domain + ": " + checked + " results checked");
        assertEquals(offered(domain), new TreeSet<>(types.toolNames()), "every tool the domain offers is typed");
    }

    /** The agent's and the user's tools as upstream offers them ({@code prompts.json}), as {@code requestor/name}. */
    private static TreeSet<String> offered(String domain) throws java.io.IOException {
        var prompts = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(CONFORMANCE.resolve(domain).resolve("prompts.json").toFile());
        TreeSet<String> out = new TreeSet<>();
        for (var t : prompts.get("agent_tools")) out.add("assistant/" + name(t));
        for (var t : prompts.path("user_tools_all")) out.add("user/" + name(t));
        return out;
    }

    private static String name(com.fasterxml.jackson.databind.JsonNode tool) {
        return tool.has("name")
                ? tool.get("name").asText()
                : tool.get("function").get("name").asText();
    }

    @org.junit.jupiter.api.Test
    void aResultBentOutOfShapeIsCaughtWithItsPath() {
        ResultTypes retail = Tau2ResultTypes.of("retail");
        String product = "{\"name\": \"T-Shirt\", \"product_id\": \"9523456873\", \"variants\": {\"9612497925\":"
                + " {\"item_id\": \"9612497925\", \"options\": {\"color\": \"blue\"}, \"available\": true,"
                + " \"price\": 50.88}}}";
        assertNull(retail.check("assistant", "get_product_details", product));
        assertEquals(
                "$.variants[\"9612497925\"].available: expected boolean, got string \"yes\"",
                retail.check("assistant", "get_product_details", product.replace("true", "\"yes\"")));
        assertEquals(
                "$: missing key \"variants\"",
                retail.check("assistant", "get_product_details", "{\"name\": \"T-Shirt\", \"product_id\": \"1\"}"));
        assertTrue(retail.check("assistant", "get_user_details", "{}").startsWith("$: missing key"));
        assertEquals("$: expected string, got number 1.5", retail.check("assistant", "find_user_id_by_email", "1.5"));
    }
}
