/** An experiment as one self-contained HTML page ({@code ./brokkr report}). */
package brokkr.render.report;
