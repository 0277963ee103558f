package brokkr.magics.view;

import org.knowm.xchart.internal.chartpart.Chart;

/**
 * A chart with its numbers, shown as one output ({@link Rendering}): HTML with the chart inline (PNG)
 * above the tables, the PNG and SVG on their own, and text for a terminal.
 */
public interface Figure {
    Chart<?, ?> chart();

    /** The tables (and notes) shown under the chart. */
    String html();

    String text();
}
