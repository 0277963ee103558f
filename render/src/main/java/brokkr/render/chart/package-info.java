/**
 * Brokkr's charts (XChart) in one look: pass^k curves, per-task differences, probe and branch charts,
 * and their PNG and SVG images ({@link brokkr.render.chart.ChartImages}).
 */
package brokkr.render.chart;
