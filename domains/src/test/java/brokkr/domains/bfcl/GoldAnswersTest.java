package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tasks no answer built from their own possible answers passes are exactly upstream's unsatisfiable list. */
class GoldAnswersTest {
    @Test
    void unsatisfiableTasksAreUpstreamsList() {
        List<String> found = new ArrayList<>();
        for (BfclTask t : Shared.data().all()) if (GoldAnswers.unsatisfiable(t)) found.add(t.id());
        List<String> expected = new ArrayList<>();
        PyDict doc = Json.read(Shared.conformance("unsatisfiable.json")).asDict();
        for (Value u : doc.get("unsatisfiable").asList()) {
            expected.add(u.asDict().get("task_id").asStr());
            assertEquals(2, u.asDict().get("unsatisfiable_for").asList().size());
        }
        assertEquals(expected, found);
        assertEquals(List.of("live_simple_106-63-0", "live_simple_112-68-0", "live_multiple_862-181-3", "live_multiple_964-207-0"), found);
    }

    @Test
    void everySatisfiableTaskHasAnAcceptedAnswerInBothConventions() {
        int accepted = 0;
        for (BfclTask t : Shared.data().all()) {
            if (GoldAnswers.unsatisfiable(t)) continue;
            assertTrue(GoldAnswers.accepted(t, true).isPresent(), t.id());
            assertTrue(GoldAnswers.accepted(t, false).isPresent(), t.id());
            accepted++;
        }
        assertEquals(3487, accepted);
    }
}
