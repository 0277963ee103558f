package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.Comparison;
import brokkr.experiment.Comparison.Trial;
import brokkr.magics.builtin.CompareMagics;
import brokkr.magics.display.Rendering;
import brokkr.magics.view.TablesawTables;
import brokkr.render.chart.Charts;
import brokkr.render.experiment.ComparisonTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import tech.tablesaw.api.Table;

/** {@code %compare} and the comparison's tables and chart. */
class CompareMagicsTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    @TempDir
    Path tmp;

    /**
     * Four tasks of 2 trials: a 1,1 | 1,0 | 0,0 | 1,1 against b 0,0 | 1,0 | 0,0 | 0,1: reward differences
     * 1, 0, 0, 0.5; mean 0.375, sd sqrt((0.390625 + 0.140625 * 2 + 0.015625) / 3) = 0.478714, se 0.239357;
     * sign flips: |sum| 1.5 reached by ++ and -- over the two non-zero differences, times 4 for the zeros:
     * 8/16 = 0.5 (the zeros' signs do not matter). pass^2 per task a 1, 0, 0, 1 and b 0, 0, 0, 0.
     */
    static Comparison handWorked() {
        Map<String, List<Trial>> a = new LinkedHashMap<>(), b = new LinkedHashMap<>();
        double[][] ra = {{1, 1}, {1, 0}, {0, 0}, {1, 1}}, rb = {{0, 0}, {1, 0}, {0, 0}, {0, 1}};
        for (int t = 0; t < 4; t++) {
            a.put("t" + t, List.of(new Trial(0, ra[t][0], ra[t][0] == 1), new Trial(1, ra[t][1], ra[t][1] == 1)));
            b.put("t" + t, List.of(new Trial(0, rb[t][0], rb[t][0] == 1), new Trial(1, rb[t][1], rb[t][1] == 1)));
        }
        b.put("t9", List.of(new Trial(0, 1, true)));
        return Comparison.of("bench", new Comparison.Side("new", "d"), new Comparison.Side("old", "d"), a, b);
    }

    @Test
    void tablesCarryTheHandWorkedNumbers() throws Exception {
        List<Comparison> cs = List.of(handWorked());
        Table m = TablesawTables.tablesaw(ComparisonTables.metrics(cs));
        assertEquals(
                List.of("avg_reward", "pass^1", "pass^2"),
                m.stringColumn("metric").asList());
        assertEquals(0.375, m.doubleColumn("diff").get(0), 1e-12);
        assertEquals(0.4787135539 / 2, m.doubleColumn("se").get(0), 1e-9);
        assertEquals(0.5, m.doubleColumn("p_signflip").get(0), 1e-15);
        assertEquals(0.5, m.doubleColumn("diff").get(2), 1e-12, "pass^2: (1 + 0 + 0 + 1)/4 - 0");
        Table t = TablesawTables.tablesaw(ComparisonTables.tasks(cs));
        assertEquals(List.of(1.0, 0.0, 0.0, 0.5), t.doubleColumn("reward_diff").asList());
        assertEquals(List.of(1.0, 0.0, 0.0, 1.0), t.doubleColumn("pass^2_diff").asList());
        Table u = TablesawTables.tablesaw(ComparisonTables.unmatched(cs));
        assertEquals("t9", u.stringColumn("task").get(0));
        assertEquals("only in B", u.stringColumn("reason").get(0));
        String text = ComparisonTables.text(cs);
        assertTrue(text.startsWith("a = new, b = old: differences a - b over the tasks both scored (in d)"), text);
        assertTrue(
                text.contains(
                        "bench: 4 tasks compared, 1 left out (listed below), 0 scored trials without a partner left out; "
                                + "sign-flip p exact over 2^4 sign assignments"),
                text);
        assertTrue(
                text.contains("unmatched tasks (excluded)\nbenchmark  task  reason\nbench      t9    only in B\n"),
                text);

        CategoryChart chart = Charts.taskDifferences(cs.getFirst());
        assertEquals("bench: mean reward per task, new - old (4 tasks)", chart.getTitle());
        assertEquals("difference in mean reward (a - b)", chart.getYAxisTitle());
        assertTrue(
                chart.getSeriesMap().containsKey("new higher")
                        && chart.getSeriesMap().containsKey("mean difference 0.375"),
                chart.getSeriesMap().keySet().toString());
        assertEquals(
                List.of("t0", "t3", "t1", "t2"),
                chart.getSeriesMap().get("new higher").getXData().stream()
                        .map(Object::toString)
                        .toList(),
                "largest difference first");
        Path charts = Files.createDirectories(Path.of("target", "charts"));
        Files.write(charts.resolve("differences.png"), Rendering.png(chart));
    }

    /** One task: the mean difference, but no se, interval, t p-value or MDE: dashes, never 0. */
    @Test
    void oneTaskShowsDashes() {
        Comparison c = Comparison.of(
                "bench",
                new Comparison.Side("x", "d"),
                new Comparison.Side("y", "d"),
                Map.of("t", List.of(new Trial(0, 1, true))),
                Map.of("t", List.of(new Trial(0, 0, false))));
        String line = ComparisonTables.text(List.of(c))
                .lines()
                .filter(l -> l.startsWith("bench") && l.contains("avg_reward"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                List.of("bench", "avg_reward", "1", "1", "1.00", "0", "1.00", "–", "–", "–", "–", "1.00", "–"),
                List.of(line.split("\\s+")));
    }

    @Test
    void compareMagicOnTwoCandidatesOfAnExperiment() throws Exception {
        Session s = new Session();
        Path dir = tmp.resolve("exp");
        s.magics().evalCell(s, "experiment", "--dir " + dir, """
                name: cmp
                domain: loop
                split: smoke
                candidates:
                  - {id: ideal, provider: scripted, model: ideal}
                  - {id: early, provider: scripted, model: early-stop}
                repetitions: 2
                """);
        var view = (CompareMagics.CompareView) s.magic("%compare " + dir);
        assertEquals("ideal", view.comparisons().getFirst().a().candidate());
        assertEquals(1.0, view.metrics().doubleColumn("diff").get(0));
        assertTrue(view.html().contains("data:image/png;base64,") && view.html().contains("<table"), view.html());
        assertEquals(1, view.charts().size());
        var swapped = (CompareMagics.CompareView) s.magic("%compare " + dir + " --a early --b ideal");
        assertEquals(-1.0, swapped.metrics().doubleColumn("diff").get(0));
        MagicUsageException e =
                assertThrows(MagicUsageException.class, () -> s.magic("%compare " + dir + " --a nobody"));
        assertTrue(e.getMessage().contains("no candidate 'nobody'"), e.getMessage());
        assertThrows(MagicUsageException.class, () -> s.magic("%compare " + tmp.resolve("none")));
        assertThrows(MagicUsageException.class, () -> s.magic("%compare"));
    }
}
