package brokkr.render.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.experiment.EpisodeCost;
import brokkr.experiment.PassHatK;
import brokkr.experiment.Scorecard;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/** The charts' look: white, large, series apart by marker and line, titled with what they rest on. Writes PNGs to target/charts to look at. */
class ChartsTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    static Scorecard.CandidateScore row(String cand, int tasks, List<Double> curve) {
        return new Scorecard.CandidateScore(
                "loop",
                cand,
                cand,
                tasks,
                tasks * curve.size(),
                0,
                curve.getFirst(),
                curve,
                List.of(),
                List.of(),
                Map.of(),
                new Scorecard.Cost(0, 0, 0, 0, EpisodeCost.Means.NONE));
    }

    /** Two candidates on top of each other at 1.0, one falling, one at 0: the case that hid curves before. */
    static Scorecard overlapping() {
        return new Scorecard(
                List.of(
                        row("ideal", 5, List.of(1.0, 1.0, 1.0, 1.0)),
                        row("batch", 5, List.of(1.0, 1.0, 1.0, 1.0)),
                        row("flaky", 5, List.of(0.8, 0.6, 0.45, 0.4)),
                        row("early-stop", 5, List.of(0.0, 0.0, 0.0, 0.0))),
                80,
                0);
    }

    static Path write(String name, byte[] png) throws Exception {
        Path dir = Path.of("target", "charts");
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), png);
    }

    @Test
    void passKChartIsTitledWithItsExperimentAndCountsOnAUnitAxis() throws Exception {
        XYChart chart = Charts.passK("loop-passk", overlapping());
        assertEquals("loop-passk: pass^k by candidate (5 tasks, 4 trials)", chart.getTitle());
        assertEquals(Charts.WIDTH, chart.getWidth());
        assertEquals(Charts.HEIGHT, chart.getHeight());
        assertEquals(0.0, chart.getStyler().getYAxisMin());
        assertEquals(1.0, chart.getStyler().getYAxisMax());
        assertEquals("0.0", chart.getStyler().getYAxisDecimalPattern());
        assertEquals(
                "2", chart.getStyler().getxAxisTickLabelsFormattingFunction().apply(2.0));
        assertEquals(
                "",
                chart.getStyler()
                        .getxAxisTickLabelsFormattingFunction()
                        .apply(2.5)
                        .strip(),
                "no ticks between whole k");
        assertTrue(
                !chart.getStyler()
                        .getxAxisTickLabelsFormattingFunction()
                        .apply(2.5)
                        .equals(chart.getStyler()
                                .getxAxisTickLabelsFormattingFunction()
                                .apply(3.5)),
                "blank labels differ (XChart drops a spacing whose labels repeat)");
        assertEquals(4, chart.getSeriesMap().size());

        byte[] png = ChartImages.png(chart);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        write("passk.png", png);
        assertEquals(Charts.WIDTH, img.getWidth());
        assertEquals(0xFFFFFF, img.getRGB(3, 3) & 0xFFFFFF, "white chart background, not XChart's grey");
        // The two curves at 1.0 draw in different colours on the same pixels' row: both must show.
        Set<Integer> colours = new HashSet<>();
        for (int x = 0; x < img.getWidth(); x++)
            for (int y = 0; y < img.getHeight(); y++) colours.add(img.getRGB(x, y) & 0xFFFFFF);
        assertTrue(
                colours.contains(Charts.COLORS[0].getRGB() & 0xFFFFFF)
                        && colours.contains(Charts.COLORS[1].getRGB() & 0xFFFFFF),
                "overlapping series both visible");
    }

    @Test
    void everySeriesGetsItsOwnColourMarkerAndLine() {
        XYChart chart = Charts.passK("x", overlapping());
        ChartImages.png(chart); // XChart assigns the styler's cycles when the chart is painted
        Set<Object> markers = new HashSet<>(), lines = new HashSet<>(), colours = new HashSet<>();
        for (XYSeries s : chart.getSeriesMap().values()) {
            markers.add(s.getMarker());
            lines.add(s.getLineStyle());
            colours.add(s.getLineColor());
        }
        assertEquals(4, markers.size(), "markers");
        assertEquals(4, lines.size(), "line styles");
        assertEquals(4, colours.size(), "colours");
    }

    @Test
    void titlesSayRangesAndSingulars() {
        var one = new Scorecard(List.of(row("a", 1, List.of(1.0))), 1, 0);
        assertEquals("e: pass^k by candidate (1 task, 1 trial)", Charts.passKTitle("e", one));
        var mixed = new Scorecard(List.of(row("a", 3, List.of(1.0, 1.0)), row("b", 40, List.of(0.5))), 10, 0);
        assertEquals("e: pass^k by candidate (3-40 tasks, 2 trials)", Charts.passKTitle("e", mixed));
    }

    /** A long title fits the chart (XChart draws it on one line and clipped "(8 branches" off); its end is kept. */
    @Test
    void longTitlesFitTheChart() {
        String title = "tau2-telecom: branch rewards at customer message 3, task "
                + ProbeCharts.task("[mobile_data_issue]airplane_mode_on|bad_network_preference") + " (8 branches)";
        var chart = ProbeCharts.rewards(title, java.util.Map.of());
        var font = chart.getStyler().getChartTitleFont();
        double drawn = font.getStringBounds(chart.getTitle(), new java.awt.font.FontRenderContext(null, true, true))
                .getWidth();
        assertTrue(drawn <= chart.getWidth() - 28, drawn + " px at " + font.getSize() + " pt");
        assertEquals(title, chart.getTitle(), "shrunk, not cut");
        String huge = "x".repeat(300) + " (8 branches)";
        var cut = ProbeCharts.rewards(huge, java.util.Map.of());
        assertTrue(cut.getTitle().contains("…") && cut.getTitle().endsWith("(8 branches)"), cut.getTitle());
    }

    /** A candidate with per-task results: tasks of 4 trials with these successes. */
    static Scorecard.CandidateScore measured(String cand, int... successes) {
        List<Scorecard.TaskScore> tasks = new ArrayList<>();
        for (int i = 0; i < successes.length; i++) {
            List<Double> curve = new ArrayList<>();
            for (int k = 1; k <= 4; k++) curve.add(PassHatK.of(4, successes[i], k));
            tasks.add(new Scorecard.TaskScore("t" + i, 4, successes[i], successes[i] / 4.0, curve));
        }
        List<Double> curve = PassHatK.curve(tasks.stream()
                .map(t -> new PassHatK.TaskTrials(t.trials(), t.successes()))
                .toList());
        return new Scorecard.CandidateScore(
                "loop",
                cand,
                cand,
                tasks.size(),
                4 * tasks.size(),
                0,
                curve.getFirst(),
                curve,
                tasks,
                List.of(),
                Map.of(),
                new Scorecard.Cost(0, 0, 0, 0, EpisodeCost.Means.NONE));
    }

    /**
     * Each point carries its 95% interval as a bar in its series' colour, out of the legend: 2 candidates
     * x 4 k, the always-passing one too (Wilson-type: a width even where every trial passed).
     */
    @Test
    void passKChartDrawsTheIntervalsAsErrorBars() throws Exception {
        var sc =
                new Scorecard(List.of(measured("ideal", 4, 4, 4, 4, 4, 4), measured("flaky", 4, 3, 2, 4, 1, 0)), 48, 0);
        XYChart chart = Charts.passK("bars", sc);
        assertEquals("pass^k (bars: 95% interval over tasks)", chart.getYAxisTitle());
        List<XYSeries> bars = chart.getSeriesMap().values().stream()
                .filter(x -> !x.isShowInLegend())
                .toList();
        assertEquals(8, bars.size(), "one bar per candidate and k");
        assertEquals(2, chart.getSeriesMap().size() - bars.size(), "the legend names the two candidates");
        // flaky's pass^1: the Wilson-type interval (6 tasks < 30), from its bar's ends.
        var e = sc.rows().get(1);
        var wilson = e.passHatKWilson().getFirst();
        XYSeries bar = chart.getSeriesMap().get("95% 1/0");
        assertEquals(wilson.high(), bar.getYData()[0], 1e-12);
        assertEquals(wilson.low(), bar.getYData()[3], 1e-12);
        assertEquals(bar.getLineColor(), chart.getSeriesMap().get("flaky").getLineColor());
        assertTrue(
                bar.getXData()[2] != 1.0 && Math.abs(bar.getXData()[2] - 1.0) < 0.2, "set a little apart from k = 1");
        write("passk-bars.png", ChartImages.png(chart));
    }
}
