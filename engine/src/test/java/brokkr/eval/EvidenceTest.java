package brokkr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvidenceTest {
    /**
     * {@code Map.copyOf} iterates in an order salted per JVM, so the transcript's usage line changed
     * from run to run; usage is kept sorted by role.
     */
    @Test
    void usageIteratesInRoleOrderWhateverMapItCameFrom() {
        List<String> roles =
                List.of("user", "agent", "unattributed", "judge", "planner", "critic", "summarizer", "auditor");
        Map<String, Usage> given = new HashMap<>();
        for (int i = 0; i < roles.size(); i++) given.put(roles.get(i), new Usage(i, i));
        Evidence e = new Evidence(null, null, null, null, null, List.of(), given, null, null);
        List<String> sorted = new ArrayList<>(roles);
        sorted.sort(null);
        assertEquals(sorted, new ArrayList<>(e.usage().keySet()));
        assertEquals(
                sorted,
                new ArrayList<>(Evidence.parse(brokkr.python.PyJson.dumps(e.toValue()))
                        .usage()
                        .keySet()));
        assertEquals(given, e.usage());
    }

    /**
     * Cache reads and writes are recorded with the attempt under their own keys, and only when there were some:
     * a record of uncached calls is what Brokkr wrote before it recorded them (the same keys, the same bytes), and
     * such a record reads as no cache tokens.
     */
    @Test
    void cacheTokensRoundTripAndRecordsWithoutThemReadAsBefore() {
        Map<String, Usage> usage = Map.of("agent", new Usage(1300, 10, 1000, 200), "user", new Usage(40, 2));
        Evidence e = new Evidence(null, null, null, null, null, List.of(), usage, null, null);
        String json = brokkr.python.PyJson.dumps(e.toValue());
        assertEquals(usage, Evidence.parse(json).usage());
        assertTrue(
                json.contains(
                        "\"usage\": {\"agent\": {\"input_tokens\": 1300, \"output_tokens\": 10, \"cache_read_tokens\": 1000, \"cache_write_tokens\": 200}, \"user\": {\"input_tokens\": 40, \"output_tokens\": 2}}"),
                json);
        // A record written before cache tokens were recorded.
        String old = json.replace(", \"cache_read_tokens\": 1000, \"cache_write_tokens\": 200", "");
        assertEquals(new Usage(1300, 10, 0, 0), Evidence.parse(old).usage().get("agent"));
    }
}
