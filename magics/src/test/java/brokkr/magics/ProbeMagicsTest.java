package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.eval.Attempt;
import brokkr.eval.Exploration;
import brokkr.experiment.ExperimentQuery;
import brokkr.experiment.Experiments;
import brokkr.experiment.FisherExact;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Scorecard;
import brokkr.magics.builtin.ProbeMagics;
import brokkr.magics.display.Rendering;
import brokkr.magics.view.Figure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** %probe, %checkpoint and %branch on tau2 retail through the provider contract (the magics name no domain). */
class ProbeMagicsTest {
    @TempDir
    Path tmp;

    static String firstTaskWithGoldActions(Session s) {
        return s.domain().tasks().stream()
                .filter(r -> r.splits().contains("test") && r.goldActions() > 0)
                .map(Exploration.TaskRow::id)
                .findFirst()
                .orElseThrow();
    }

    /** Where the charts go for a person to look at (target/probe-charts). */
    static void save(String name, Figure f) throws Exception {
        Path dir = Path.of("target", "probe-charts");
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), Rendering.png(f.chart()));
    }

    @Test
    void probeATaskOfTheLoadedDomain() throws Exception {
        Session s = new Session();
        s.magic("%domain load tau2-retail");
        String task = firstTaskWithGoldActions(s);
        var gold = (ProbeMagics.ProbeView) s.magic("%probe " + task + " 1 --candidate gold -n 8");
        assertEquals(8, gold.result().matchesGold());
        assertEquals(1, gold.outcomes().rowCount());
        assertEquals("matches gold", gold.outcomes().stringColumn("vs gold").get(0));
        var half = (ProbeMagics.ProbeView) s.magic("%probe " + task + " --at 1 --candidate gold-50 -n 20 --seed 3");
        assertEquals(20, half.samples().rowCount());
        assertEquals(20, half.outcomes().intColumn("count").sum(), 1e-9);
        assertTrue(
                half.chart().getTitle().contains("customer message 1: gold-50 (20 samples)"),
                half.chart().getTitle());
        assertTrue(half.chart().getSeriesMap().containsKey("matches the recorded (gold) next action"));
        assertTrue(
                half.html().contains("<table")
                        && half.text().contains("matches gold: " + half.result().matchesGold() + "/20"),
                half.text());
        save("probe-gold-50", half);

        var vs = (ProbeMagics.ComparisonView)
                s.magic("%probe " + task + " 1 --candidate gold --vs gold-50 -n 20 --seed 3");
        int m = vs.comparison().second().matchesGold();
        assertEquals(m, half.result().matchesGold()); // the same seeds give the same samples, interleaved or not
        assertEquals(
                FisherExact.test(20, 0, m, 20 - m).pValue(),
                vs.comparison().test().pValue());
        assertTrue(
                vs.chart().getTitle().contains("gold vs gold-50 (p = "),
                vs.chart().getTitle());
        save("probe-gold-vs-gold-50", vs);

        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%probe " + task + " 9 --candidate gold"))
                .getMessage()
                .contains("the agent answered, not 9"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%probe " + task + " 1"))
                .getMessage()
                .contains("--candidate"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%probe " + task + " 1 --candidate nobody"))
                .getMessage()
                .contains("unknown tau2-retail candidate 'nobody'"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%probe " + task + " 1 --candidate gold -n 0"))
                .getMessage()
                .contains("at least 1"));
    }

    @Test
    void probeARecordedAttemptOfAStoreAndKeepTheProbeOutOfTheScorecard() throws Exception {
        Session s = new Session();
        s.magic("%domain load tau2-retail");
        String task = firstTaskWithGoldActions(s);
        Path dir = tmp.resolve("exp");
        s.magics().evalCell(s, "experiment", "--dir " + dir, """
                name: retail-probe
                domain: tau2-retail
                tasks: ["%s"]
                candidates:
                  - {id: gold, provider: scripted, model: gold}
                repetitions: 1
                """.formatted(task));
        var before = Experiments.scorecard(dir);
        long attempt;
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            attempt = q.attempts(false).getFirst().id();
        }
        var v = (ProbeMagics.ComparisonView)
                s.magic("%probe " + dir + " " + attempt + " --at 1 --candidate gold-50 -n 10 --vs gold");
        assertEquals(10, v.comparison().second().matchesGold());
        assertTrue(v.stored().startsWith("stored in " + dir + " as diagnostic probe records #1, #2"), v.stored());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            assertEquals(2, q.probes().size());
            ProbeResult r = q.probes().getFirst().result();
            assertEquals(attempt, r.sourceAttempt());
            assertEquals(v.comparison().test().pValue(), q.probes().get(1).pValue());
        }
        assertEquals(before, Experiments.scorecard(dir));
        assertTrue(
                assertThrows(MagicUsageException.class, () -> s.magic("%probe " + dir + " 999 --at 1 --candidate gold"))
                        .getMessage()
                        .contains("no attempt 999"));
    }

    @Test
    void checkpointAndBranches() throws Exception {
        Session s = new Session();
        s.magic("%domain load tau2-retail");
        String task = firstTaskWithGoldActions(s);
        var cp = (ProbeMagics.CheckpointView) s.magic("%checkpoint " + task + " --at 1");
        assertEquals("cp1", cp.name());
        assertTrue(cp.text().contains("held at customer message 1"), cp.text());
        var b = (ProbeMagics.BranchesView) s.magic("%branch cp1 -n 3 --candidate gold,stop");
        assertEquals(
                List.of("agent=scripted/gold", "agent=scripted/stop"),
                List.copyOf(b.byVariant().keySet()));
        assertTrue(b.byVariant().get("agent=scripted/gold").stream().allMatch(a -> a.reward() == 1.0));
        assertTrue(b.byVariant().get("agent=scripted/stop").stream().allMatch(a -> a.reward() == 0.0));
        assertEquals(6, b.table().rowCount());
        var again = (ProbeMagics.BranchesView) s.magic("%branch cp1 -n 2");
        assertEquals(3, again.byVariant().size());
        assertEquals(8, again.table().rowCount());
        assertTrue(
                again.chart().getTitle().contains("8 branches"), again.chart().getTitle());
        save("branches", again);
        // a repeated variant continues with new branch indices (new trial seeds)
        assertEquals(
                List.of(0, 1, 2),
                again.byVariant().get("agent=scripted/gold").stream()
                        .map(Attempt::repetition)
                        .toList());
        assertEquals(
                List.of(0, 1),
                again.byVariant().get("checkpoint's (scripted/gold)").stream()
                        .map(Attempt::repetition)
                        .toList());
        // --dir stores them as ordinary attempts of their own cells, beside nothing else
        Path dir = tmp.resolve("branches");
        var stored = (ProbeMagics.BranchesView) s.magic("%branch cp1 -n 2 --candidate gold --dir " + dir);
        assertEquals(2, stored.storedIds().size());
        assertTrue(stored.text().contains("2 branch attempt(s) stored in " + dir), stored.text());
        // the view holds this checkpoint's earlier branches too; the stored ones are the new indices
        assertEquals(
                List.of(0, 1, 2, 3, 4),
                stored.byVariant().get("agent=scripted/gold").stream()
                        .map(Attempt::repetition)
                        .toList());
        try (ExperimentQuery q = ExperimentQuery.open(dir)) {
            List<Attempt> as = q.attempts(true);
            // branches run in parallel: attempt ids follow the order they finished in, so compare them as sets
            assertEquals(
                    stored.storedIds().stream().sorted().toList(),
                    as.stream().map(Attempt::id).sorted().toList());
            assertEquals(
                    List.of(3, 4), as.stream().map(Attempt::repetition).sorted().toList());
            for (Attempt a : as) assertEquals(1.0, a.reward());
            assertEquals(1, Scorecard.of(q).rows().size());
            assertTrue(
                    Scorecard.of(q).rows().getFirst().candidate().startsWith("gold [branch "),
                    Scorecard.of(q).rows().getFirst().candidate());
        }
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%branch cp7 -n 2"))
                .getMessage()
                .contains("no checkpoint 'cp7'"));
        assertTrue(assertThrows(MagicUsageException.class, () -> s.magic("%checkpoint " + task + " --at 40"))
                .getMessage()
                .contains("before customer message 40"));
    }
}
