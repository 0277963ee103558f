package brokkr.magics.display;

import brokkr.magics.builtin.ExperimentMagics;
import brokkr.magics.view.Figure;
import brokkr.magics.view.Rich;
import brokkr.magics.view.Tables;
import brokkr.magics.view.TranscriptView;
import brokkr.render.chart.ChartImages;
import java.util.Base64;
import org.dflib.jjava.jupyter.kernel.display.RenderContext;
import org.dflib.jjava.jupyter.kernel.display.Renderer;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * Brokkr's renderers on JJava's one {@link Renderer} registry, which the kernel and the REPL share and
 * users extend the same way ({@code renderer.createRegistration(T.class).preferring(...).register(...)}):
 * <ul>
 *   <li>Tablesaw {@link Table}s → {@code text/html} and {@code text/plain};</li>
 *   <li>XChart charts → {@code text/html} (the PNG inline), {@code image/png} and {@code image/svg+xml}
 *       (XChart's own {@link ChartImages}: VectorGraphics2D);</li>
 *   <li>agent {@link brokkr.agent.Transcript}s (as {@link TranscriptView}) and {@link Rich} values (summaries,
 *       tasks, tool calls, runs with their transcripts) → {@code text/html},
 *       {@code text/markdown} when they have it, and {@code text/plain}.</li>
 * </ul>
 */
public final class Rendering {
    private Rendering() {}

    public static final MIMEType PNG = MIMEType.IMAGE_PNG;
    public static final MIMEType SVG = MIMEType.IMAGE_SVG;

    public static Renderer registerAll(Renderer r) {
        r.createRegistration(Table.class)
                .preferring(MIMEType.TEXT_HTML, MIMEType.TEXT_PLAIN)
                .supporting(MIMEType.TEXT_MARKDOWN)
                .register(Rendering::table);
        r.createRegistration(Chart.class)
                .preferring(MIMEType.TEXT_HTML, PNG, SVG, MIMEType.TEXT_PLAIN)
                .register(Rendering::chart);
        r.createRegistration(ExperimentMagics.PassKView.class)
                .preferring(MIMEType.TEXT_HTML, PNG, SVG, MIMEType.TEXT_PLAIN)
                .register(Rendering::passk);
        r.createRegistration(Figure.class)
                .preferring(MIMEType.TEXT_HTML, PNG, SVG, MIMEType.TEXT_PLAIN)
                .register(Rendering::figure);
        r.createRegistration(brokkr.agent.Transcript.class)
                .preferring(MIMEType.TEXT_HTML, MIMEType.TEXT_MARKDOWN, MIMEType.TEXT_PLAIN)
                .register((t, ctx) -> rich(new TranscriptView(t), ctx));
        r.createRegistration(Rich.class)
                .preferring(MIMEType.TEXT_HTML, MIMEType.TEXT_MARKDOWN, MIMEType.TEXT_PLAIN)
                .register(Rendering::rich);
        return r;
    }

    static void table(Table t, RenderContext ctx) {
        ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> Tables.html(t));
        ctx.renderIfRequested(MIMEType.TEXT_MARKDOWN, () -> Tables.markdown(t));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> Tables.text(t));
    }

    static void rich(Rich v, RenderContext ctx) {
        ctx.renderIfRequested(MIMEType.TEXT_HTML, v::html);
        String md = v.markdown();
        if (md != null) ctx.renderIfRequested(MIMEType.TEXT_MARKDOWN, () -> md);
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> v.text());
    }

    /** The chart and its numbers in one output: HTML (inline image and table) for notebooks, PNG and SVG besides. */
    static void passk(ExperimentMagics.PassKView v, RenderContext ctx) {
        byte[] png = png(v.chart());
        String b64 = Base64.getEncoder().encodeToString(png);
        ctx.renderIfRequested(
                MIMEType.TEXT_HTML,
                () -> "<div class=\"brokkr-passk\"><img src=\"data:image/png;base64," + b64
                        + "\" alt=\"pass^k by candidate\"/>" + Tables.html(v.table()) + "</div>");
        ctx.renderIfRequested(PNG, () -> b64);
        ctx.renderIfRequested(SVG, () -> svg(v.chart()));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> Tables.text(v.table()));
    }

    /** A figure in one output: HTML (the chart inline, then its tables), PNG and SVG besides, text. */
    static void figure(Figure f, RenderContext ctx) {
        String b64 = Base64.getEncoder().encodeToString(png(f.chart()));
        ctx.renderIfRequested(
                MIMEType.TEXT_HTML,
                () -> "<div class=\"brokkr-figure\"><img src=\"data:image/png;base64," + b64 + "\" alt=\""
                        + Tables.esc(f.chart().getTitle()) + "\"/>" + f.html() + "</div>");
        ctx.renderIfRequested(PNG, () -> b64);
        ctx.renderIfRequested(SVG, () -> svg(f.chart()));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, f::text);
    }

    /**
     * A bare chart: HTML first (the PNG inline), because a bundle of PNG and SVG alone exports empty. nbconvert's
     * HTML exporter prefers {@code image/svg+xml} over {@code image/png}, and Debian's nbconvert 6.5 sanitizes
     * untrusted outputs (nbconvert/filters/sanitize.py, bleach's allow-list), which strips every element of an SVG
     * (paths, groups) and leaves an empty box; an {@code <img>} with a {@code data:} PNG passes it unchanged.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void chart(Chart c, RenderContext ctx) {
        String b64 = Base64.getEncoder().encodeToString(png(c));
        ctx.renderIfRequested(MIMEType.TEXT_HTML, () -> chartHtml(c, b64));
        ctx.renderIfRequested(PNG, () -> b64);
        ctx.renderIfRequested(SVG, () -> svg(c));
        ctx.renderIfRequested(MIMEType.TEXT_PLAIN, () -> c.getClass().getSimpleName() + " \"" + c.getTitle() + "\"");
    }

    /** A chart as an HTML image: the PNG inline, its title as the alternative text, never wider than the output. */
    @SuppressWarnings("rawtypes")
    static String chartHtml(Chart c, String pngBase64) {
        return "<div class=\"brokkr-chart\"><img src=\"data:image/png;base64," + pngBase64 + "\" alt=\""
                + Tables.esc(c.getTitle()) + "\" style=\"max-width:100%;height:auto\"/></div>";
    }

    /** The chart as PNG ({@link ChartImages#png}). */
    @SuppressWarnings("rawtypes")
    public static byte[] png(Chart c) {
        return ChartImages.png(c);
    }

    /** The chart as an SVG element ({@link ChartImages#svg}). */
    @SuppressWarnings("rawtypes")
    public static String svg(Chart c) {
        return ChartImages.svg(c);
    }
}
