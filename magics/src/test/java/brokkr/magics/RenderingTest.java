package brokkr.magics;

import static org.junit.jupiter.api.Assertions.*;

import brokkr.experiment.Registry;
import brokkr.magics.display.Rendering;
import brokkr.magics.view.RunView;
import brokkr.magics.view.TaskView;
import java.util.Base64;
import java.util.List;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

class RenderingTest {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private final Renderer renderer = Rendering.registerAll(new Renderer());

    @Test
    void tablesRenderAsEscapedHtmlAndText() {
        Table t = Table.create("t", StringColumn.create("name", List.of("<b>&")), IntColumn.create("n", new int[] {7}));
        DisplayData d = renderer.render(t);
        String html = (String) d.getData(MIMEType.TEXT_HTML);
        assertTrue(
                html.contains(">name</th><th style=\"text-align:right\">n</th>")
                        && html.contains(">&lt;b&gt;&amp;</td>")
                        && html.contains(">7</td>"),
                html);
        assertTrue(((String) d.getData(MIMEType.TEXT_PLAIN)).contains("<b>&"));
        assertFalse(d.hasDataForType(MIMEType.TEXT_MARKDOWN));
        assertTrue(renderer.renderAs(t, "text/markdown").hasDataForType(MIMEType.TEXT_MARKDOWN));
    }

    @Test
    void chartsRenderAsPngAndSvg() {
        Table sweep = Sweeps.sweep("parallel", "tasks", List.of(2, 4), List.of("batch", "serial"));
        DisplayData d = renderer.render(Sweeps.chart(sweep, "tool turns"));
        byte[] png = Base64.getDecoder().decode((String) d.getData(MIMEType.IMAGE_PNG));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4));
        String svg = (String) d.getData(MIMEType.IMAGE_SVG);
        assertTrue(
                svg.startsWith("<svg") && svg.strip().endsWith("</svg>"),
                svg.substring(0, Math.min(200, svg.length())));
        assertFalse(
                svg.contains("<?xml") || svg.contains("<!DOCTYPE"),
                "inline SVG is an element, not a document: nbconvert's HTML export rejects the declaration");
        // nbconvert prefers SVG to PNG and its 6.5 sanitizer empties an SVG: a bare chart leads with HTML, the PNG
        // inline
        String html = (String) d.getData(MIMEType.TEXT_HTML);
        assertTrue(
                html.startsWith("<div class=\"brokkr-chart\"><img src=\"data:image/png;base64,"
                        + d.getData(MIMEType.IMAGE_PNG) + "\" alt=\"parallel sweep: tool turns by tasks\""),
                html.substring(0, Math.min(200, html.length())));
    }

    @Test
    void richValuesRenderHtmlMarkdownAndText() {
        TaskView v = new TaskView("d", "7", "do <it>", "DB", List.of("f(x=1)"), "abc");
        DisplayData d = renderer.render(v);
        assertTrue(((String) d.getData(MIMEType.TEXT_HTML)).contains("do &lt;it&gt;"));
        assertTrue(((String) d.getData(MIMEType.TEXT_MARKDOWN)).contains("1. `f(x=1)`"));
        assertTrue(((String) d.getData(MIMEType.TEXT_PLAIN)).contains("initial world hash: abc"));
    }

    @Test
    void transcriptsRenderAsHtmlMarkdownAndText() {
        RunView run = Benches.load(Registry.process(), "loop").run("ideal", "3");
        DisplayData d = renderer.render(run.transcript());
        String html = (String) d.getData(MIMEType.TEXT_HTML);
        assertTrue(html.contains("brokkr-transcript") && html.contains("follow_pointer("), html);
        assertTrue(
                ((String) d.getData(MIMEType.TEXT_MARKDOWN)).startsWith("**Transcript:** 9 messages, stop=answered"));
        assertTrue(
                ((String) d.getData(MIMEType.TEXT_PLAIN)).contains("tool "), (String) d.getData(MIMEType.TEXT_PLAIN));
    }

    @Test
    void usersRegisterTheirOwnTypesOnTheSameRegistry() {
        record Point(int x, int y) {}
        renderer.createRegistration(Point.class)
                .preferring(MIMEType.TEXT_HTML)
                .register((p, ctx) ->
                        ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> "<i>" + p.x() + "," + p.y() + "</i>"));
        assertEquals("<i>1,2</i>", renderer.render(new Point(1, 2)).getData(MIMEType.TEXT_HTML));
    }
}
