/**
 * Brokkr's renderers on jjava's renderer registry ({@link brokkr.magics.display.Rendering}), shared by the kernel
 * and the REPL: tables, charts, figures, pass^k views and {@link brokkr.magics.view.Rich} values as MIME bundles.
 */
package brokkr.magics.display;
