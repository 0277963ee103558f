package brokkr.magics;

import brokkr.eval.TrustTier;
import brokkr.experiment.Scorecard;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

class ExperimentTablesTest {
    static Scorecard sample() {
        var gold = new Scorecard.CandidateScore("tau2-retail", "gold", "a1", 2, 6, 1, 1.0, List.of(1.0, 1.0, 1.0),
                List.of(new Scorecard.TaskScore("5", 3, 3, 1.0, List.of(1.0, 1.0, 1.0)), new Scorecard.TaskScore("12", 3, 3, 1.0, List.of(1.0, 1.0, 1.0))),
                List.of(new Scorecard.CheckScore("setup_verified", 6, 0), new Scorecard.CheckScore("db", 6, 0)),
                Map.of(TrustTier.MODEL_JUDGED, 2, TrustTier.DETERMINISTIC, 4), new Scorecard.Cost(1234, 56, 12.5, 75));
        var flaky = new Scorecard.CandidateScore("tau2-retail", "flaky-model", "a2", 2, 5, 2, 2.0 / 3, List.of(0.6, 1.0 / 6),
                List.of(new Scorecard.TaskScore("5", 3, 2, 2.0 / 3, List.of(2.0 / 3, 1.0 / 3, 0.0)), new Scorecard.TaskScore("12", 2, 1, 0.5, List.of(0.5, 0.0))),
                List.of(new Scorecard.CheckScore("setup_verified", 5, 0), new Scorecard.CheckScore("db", 5, 2)),
                Map.of(TrustTier.DETERMINISTIC, 5), new Scorecard.Cost(99999, 1, 1234.5678, 6172));
        var down = new Scorecard.CandidateScore("loop", "down", "a3", 0, 0, 4, 0.0, List.of(), List.of(), List.of(), Map.of(),
                new Scorecard.Cost(0, 0, 0, 0));
        return new Scorecard(List.of(gold, flaky, down), 16, 5);
    }

    static String golden(String name) throws Exception {
        try (var in = ExperimentTablesTest.class.getResourceAsStream("golden/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The CLI's text (experiment run/show) and the notebook's tables, frozen byte for byte. */
    @Test void scorecardRendersExactlyAsFrozen() throws Exception {
        Scorecard s = sample();
        assertEquals(golden("scorecard.txt"), s.render());
        assertEquals(golden("scorecard-empty.txt"), new Scorecard(List.of(), 0, 0).render());
        assertEquals(golden("scorecard.html"), new ExperimentMagics.ScorecardView("d", s).html());
        assertEquals(golden("scorecard-tables.txt"), Tables.text(s.summaryTable()) + Tables.text(s.taskTable()) + Tables.text(s.checkTable()));
    }
}
