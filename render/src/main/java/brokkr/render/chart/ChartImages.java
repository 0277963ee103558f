package brokkr.render.chart;

import brokkr.experiment.Comparison;
import brokkr.experiment.ProbeResult;
import brokkr.experiment.Probes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Charts as image bytes: PNG (XChart's {@link BitmapEncoder}) and SVG (its {@link VectorGraphicsEncoder},
 * i.e. VectorGraphics2D). The commands that write a chart file call the methods that take Brokkr's own
 * values ({@link #probePng}, {@link #taskDifferences}): a command's code then names no XChart type, so
 * the JVM loads XChart only when a chart is really drawn, not to verify a command that might draw one.
 */
public final class ChartImages {
    private ChartImages() {}

    @SuppressWarnings({"rawtypes", "unchecked"})
    public static byte[] png(Chart c) {
        try {
            return BitmapEncoder.getBitmapBytes(c, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The chart as an SVG element, without the XML declaration and DOCTYPE VectorGraphics2D writes
     * before it: inline SVG (notebook outputs, HTML pages) is an element, and nbconvert's HTML export
     * (lxml) rejects a string that declares an encoding.
     */
    @SuppressWarnings("rawtypes")
    public static String svg(Chart c) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            VectorGraphicsEncoder.saveVectorGraphic(c, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            String doc = out.toString(StandardCharsets.UTF_8);
            int root = doc.indexOf("<svg");
            return root < 0 ? doc : doc.substring(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The decision-point probe chart of one candidate ({@link ProbeCharts#probe}) as PNG. */
    public static byte[] probePng(ProbeResult r) {
        return png(ProbeCharts.probe(r));
    }

    /** Two candidates at one decision point ({@link ProbeCharts#comparison}) as PNG. */
    public static byte[] probePng(Probes.Comparison c) {
        return png(ProbeCharts.comparison(c));
    }

    /** The per-task differences of a comparison ({@link Charts#taskDifferences}): PNG bytes, or SVG text as UTF-8 when {@code svg}. */
    public static byte[] taskDifferences(Comparison c, boolean svg) {
        var chart = Charts.taskDifferences(c);
        return svg ? svg(chart).getBytes(StandardCharsets.UTF_8) : png(chart);
    }
}
