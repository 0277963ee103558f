package brokkr.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ToolCall;
import brokkr.eval.ModelRef;
import brokkr.eval.NextAction;
import brokkr.value.PyDict;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Probe records live in the store beside the attempts, marked diagnostic, and never reach a scorecard. */
class ProbeStoreTest {
    @TempDir
    Path tmp;

    static final NextAction GOLD = NextAction.of(
            null,
            List.of(new ToolCall("c0", "lookup", PyDict.of("id", "7"))),
            List.of(new NextAction.Result("{}", false)));
    static final NextAction OTHER =
            NextAction.of(null, List.of(new ToolCall("c0", "lookup", PyDict.of("id", "8"))), List.of());
    static final NextAction TEXT = NextAction.of("Could you confirm?", List.of(), List.of());

    static ProbeResult probe(String candidate, List<NextAction> answers) {
        List<ProbeResult.Sample> s = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) s.add(new ProbeResult.Sample(i, i, answers.get(i)));
        return new ProbeResult(
                "quiz", "q0", "env0", 3, 1, "hello", candidate, new ModelRef("fake", candidate), 0, GOLD, s);
    }

    @Test
    void outcomeClassesAreCountedAndLabelledAgainstGold() {
        ProbeResult p = probe("mixed", List.of(GOLD, OTHER, GOLD, TEXT, GOLD));
        List<ProbeResult.OutcomeClass> cs = p.classes();
        assertEquals(
                List.of("lookup({\"id\": \"7\"})", "lookup({\"id\": \"8\"})", "text reply"),
                cs.stream().map(ProbeResult.OutcomeClass::key).toList());
        assertEquals(
                List.of(3, 1, 1),
                cs.stream().map(ProbeResult.OutcomeClass::count).toList());
        assertEquals(
                List.of(ProbeResult.Label.MATCHES_GOLD, ProbeResult.Label.SAME_TOOL, ProbeResult.Label.DIFFERS),
                cs.stream().map(ProbeResult.OutcomeClass::label).toList());
        assertEquals(3, p.matchesGold());
        assertEquals(p, ProbeResult.fromValue(p.toValue()));
        assertTrue(p.table().contains("* lookup({\"id\": \"7\"})"), p.table());
    }

    @Test
    void probesAreStoredAsDiagnosticsAndNeverScored() throws Exception {
        Path dir = tmp.resolve("x");
        var spec = ExperimentTest.spec(
                "all",
                2,
                4,
                1,
                List.of(
                        ExperimentTest.candidate("gold", "gold", null),
                        ExperimentTest.candidate("stop", "stop", null)));
        Scorecard before = Experiments.run(spec, dir, ExperimentTest.registry(3, new QuizBench.Models()))
                .scorecard();
        ProbeResult a = probe("always", List.of(GOLD, GOLD, GOLD, GOLD));
        ProbeResult b = probe("never", List.of(TEXT, OTHER, TEXT, TEXT));
        try (ExperimentStore store = ExperimentStore.openForRun(dir)) {
            ProbeStore.ProbeRecord one = store.recordProbe(a);
            assertNull(one.comparison());
            List<ProbeStore.ProbeRecord> pair =
                    store.recordComparison(new Probes.Comparison(a, b, Probes.Comparison.test(a, b)));
            assertEquals(pair.get(0).comparison(), pair.get(1).comparison());
        }
        assertEquals(before, Experiments.scorecard(dir));
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<ProbeStore.ProbeRecord> probes = q.probes();
            assertEquals(3, probes.size());
            assertEquals(a, probes.get(0).result());
            assertEquals(b, probes.get(2).result());
            // [[4, 0], [0, 4]]: p = 2 / C(8, 4) = 2/70
            assertEquals(2.0 / 70.0, probes.get(2).pValue(), 1e-12);
            assertEquals(12, q.attempts(false).size());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ExperimentStore.file(dir));
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT kind, COUNT(*) FROM probe GROUP BY kind")) {
            assertTrue(r.next());
            assertEquals("diagnostic", r.getString(1));
            assertEquals(3, r.getInt(2));
        }
    }
}
