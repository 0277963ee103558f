/**
 * The synthetic benchmarks' commands ({@code ./brokkr demo}, {@code loop}, {@code parallel}): presets of one cell
 * each over the evaluation path, registered through {@link brokkr.domains.synthetic.cli.SyntheticFamily}.
 */
package brokkr.domains.synthetic.cli;
