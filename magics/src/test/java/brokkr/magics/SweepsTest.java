package brokkr.magics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import brokkr.render.chart.ChartImages;
import brokkr.render.chart.Charts;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/** A sweep's chart has the look of Brokkr's charts (moved here from ChartsTest with the charts' move to brokkr.render). */
class SweepsTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    static Path write(String name, byte[] png) throws Exception {
        Path dir = Path.of("target", "charts");
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), png);
    }

    @Test
    void sweepChartsShareTheLook() throws Exception {
        var sweep = Sweeps.sweep("loop", "depth", List.of(10, 20, 50), List.of("ideal", "early-stop", "retry"));
        XYChart chart = Sweeps.chart(sweep, "tool calls");
        byte[] png = ChartImages.png(chart);
        write("sweep.png", png);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(Charts.WIDTH, img.getWidth());
        assertEquals(0xFFFFFF, img.getRGB(3, 3) & 0xFFFFFF);
    }
}
