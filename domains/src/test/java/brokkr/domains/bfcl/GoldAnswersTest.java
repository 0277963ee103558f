package brokkr.domains.bfcl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Python tasks no answer built from their own possible answers passes are exactly upstream's unsatisfiable list. */
class GoldAnswersTest {
    /** The Python categories (simple_java / simple_javascript: LanguageGoldTest). */
    private static List<BfclTask> python() {
        return Shared.data().all().stream()
                .filter(t -> t.category().language() == AstChecker.Language.PYTHON)
                .toList();
    }

    @Test
    void unsatisfiableTasksAreUpstreamsList() {
        List<String> found = new ArrayList<>();
        for (BfclTask t : python()) if (GoldAnswers.unsatisfiable(t)) found.add(t.id());
        List<String> expected = new ArrayList<>();
        PyDict doc = Json.read(Shared.conformance("unsatisfiable.json")).asDict();
        for (Value u : doc.get("unsatisfiable").asList()) {
            expected.add(u.asDict().get("task_id").asStr());
            assertEquals(2, u.asDict().get("unsatisfiable_for").asList().size());
        }
        assertEquals(expected, found);
        assertEquals(
                List.of(
                        "live_simple_106-63-0",
                        "live_simple_112-68-0",
                        "live_multiple_862-181-3",
                        "live_multiple_964-207-0"),
                found);
    }

    /** The rejections upstream recorded for those tasks are reproduced verdict for verdict. */
    @Test
    void upstreamsRecordedRejectionsAreReproduced() {
        PyDict doc = Json.read(Shared.conformance("unsatisfiable.json")).asDict();
        int checked = 0;
        for (Value u : doc.get("unsatisfiable").asList()) {
            PyDict entry = u.asDict();
            BfclTask t = Shared.data().byId().get(entry.get("task_id").asStr());
            PyDict rejection = entry.get("checker_rejection").asDict();
            // The recorded candidate does not name its convention: it must be rejected as recorded under one.
            boolean matched = false;
            for (boolean u2d : new boolean[] {true, false}) {
                BfclGrader.Verdict v = BfclGrader.grade(t, PyObj.fromJson(rejection.get("model_output")), u2d);
                matched |= !v.valid()
                        && v.errorType().equals(rejection.get("error_type").asStr())
                        && PyObj.same(PyObj.list(v.errors()), PyObj.fromJson(rejection.get("error")));
            }
            assertTrue(matched, t.id());
            for (Value p : entry.get("probe_rejections").asList()) {
                PyDict probe = p.asDict();
                boolean u2d = probe.get("model_name").asStr().endsWith("-FC");
                BfclGrader.Verdict v = BfclGrader.grade(t, PyObj.fromJson(probe.get("model_output")), u2d);
                assertEquals(false, v.valid(), t.id());
                assertEquals(probe.get("error_type").asStr(), v.errorType(), t.id());
                assertTrue(
                        PyObj.same(PyObj.list(v.errors()), PyObj.fromJson(probe.get("error"))),
                        t.id() + " " + v.errors());
                checked++;
            }
        }
        assertEquals(4, checked);
    }

    @Test
    void everySatisfiableTaskHasAnAcceptedAnswerInBothConventions() {
        int accepted = 0;
        for (BfclTask t : python()) {
            if (GoldAnswers.unsatisfiable(t)) continue;
            assertTrue(GoldAnswers.accepted(t, true).isPresent(), t.id());
            assertTrue(GoldAnswers.accepted(t, false).isPresent(), t.id());
            accepted++;
        }
        assertEquals(3487, accepted);
    }
}
