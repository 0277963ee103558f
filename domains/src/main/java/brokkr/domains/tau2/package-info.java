/**
 * The tau2-bench family: upstream's framework, package for package under upstream's names
 * ({@code src/tau2/data_model}, {@code environment}, {@code agent}, {@code user}, {@code orchestrator},
 * {@code evaluator}, {@code runner}), and one package per transcribed domain beside it ({@code retail}).
 * A domain brings its data model, tools, environment and prompts; everything else is shared.
 * {@link brokkr.domains.tau2.runner.Tau2Benchmark} puts a domain on the one evaluation path.
 */
package brokkr.domains.tau2;
