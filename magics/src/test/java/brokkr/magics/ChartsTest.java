package brokkr.magics;

import brokkr.experiment.Scorecard;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The charts' look: white, large, series apart by marker and line, titled with what they rest on. Writes PNGs to target/charts to look at. */
class ChartsTest {
    static { System.setProperty("java.awt.headless", "true"); }

    static Scorecard.CandidateScore row(String cand, int tasks, List<Double> curve) {
        return new Scorecard.CandidateScore("loop", cand, cand, tasks, tasks * curve.size(), 0, curve.getFirst(), curve, List.of(), List.of(),
                Map.of(), new Scorecard.Cost(0, 0, 0, 0));
    }

    /** Two candidates on top of each other at 1.0, one falling, one at 0: the case that hid curves before. */
    static Scorecard overlapping() {
        return new Scorecard(List.of(row("ideal", 5, List.of(1.0, 1.0, 1.0, 1.0)), row("batch", 5, List.of(1.0, 1.0, 1.0, 1.0)),
                row("flaky", 5, List.of(0.8, 0.6, 0.45, 0.4)), row("early-stop", 5, List.of(0.0, 0.0, 0.0, 0.0))), 80, 0);
    }

    static Path write(String name, byte[] png) throws Exception {
        Path dir = Path.of("target", "charts");
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), png);
    }

    @Test void passKChartIsTitledWithItsExperimentAndCountsOnAUnitAxis() throws Exception {
        XYChart chart = Charts.passK("loop-passk", overlapping());
        assertEquals("loop-passk: pass^k by candidate (5 tasks, 4 trials)", chart.getTitle());
        assertEquals(Charts.WIDTH, chart.getWidth());
        assertEquals(Charts.HEIGHT, chart.getHeight());
        assertEquals(0.0, chart.getStyler().getYAxisMin());
        assertEquals(1.0, chart.getStyler().getYAxisMax());
        assertEquals("0.0", chart.getStyler().getYAxisDecimalPattern());
        assertEquals("2", chart.getStyler().getxAxisTickLabelsFormattingFunction().apply(2.0));
        assertEquals("", chart.getStyler().getxAxisTickLabelsFormattingFunction().apply(2.5), "no ticks between whole k");
        assertEquals(4, chart.getSeriesMap().size());

        byte[] png = Rendering.png(chart);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        write("passk.png", png);
        assertEquals(Charts.WIDTH, img.getWidth());
        assertEquals(0xFFFFFF, img.getRGB(3, 3) & 0xFFFFFF, "white chart background, not XChart's grey");
        // The two curves at 1.0 draw in different colours on the same pixels' row: both must show.
        Set<Integer> colours = new HashSet<>();
        for (int x = 0; x < img.getWidth(); x++) for (int y = 0; y < img.getHeight(); y++) colours.add(img.getRGB(x, y) & 0xFFFFFF);
        assertTrue(colours.contains(Charts.COLORS[0].getRGB() & 0xFFFFFF) && colours.contains(Charts.COLORS[1].getRGB() & 0xFFFFFF),
                "overlapping series both visible");
    }

    @Test void everySeriesGetsItsOwnColourMarkerAndLine() {
        XYChart chart = Charts.passK("x", overlapping());
        Rendering.png(chart); // XChart assigns the styler's cycles when the chart is painted
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

    @Test void titlesSayRangesAndSingulars() {
        var one = new Scorecard(List.of(row("a", 1, List.of(1.0))), 1, 0);
        assertEquals("e: pass^k by candidate (1 task, 1 trial)", Charts.passKTitle("e", one));
        var mixed = new Scorecard(List.of(row("a", 3, List.of(1.0, 1.0)), row("b", 40, List.of(0.5))), 10, 0);
        assertEquals("e: pass^k by candidate (3-40 tasks, 2 trials)", Charts.passKTitle("e", mixed));
    }

    @Test void sweepChartsShareTheLook() throws Exception {
        var sweep = Sweeps.sweep("loop", "depth", List.of(10, 20, 50), List.of("ideal", "early-stop", "retry"));
        XYChart chart = Sweeps.chart(sweep, "tool calls");
        byte[] png = Rendering.png(chart);
        write("sweep.png", png);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(Charts.WIDTH, img.getWidth());
        assertEquals(0xFFFFFF, img.getRGB(3, 3) & 0xFFFFFF);
    }
}
