package brokkr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
